// The duplicate listing rule (issue 29): a product has at most one listing waiting, being published or live per shop
// (account group) and site, unless the seller asks for another copy (Publish isAllowDuplicate, 允许重复刊登). The
// publisher adds this problem to the pre-flight of each pair already listed; the publish screen shows those pairs and
// the checkbox. The server holds the rule under concurrency with a partial unique index (migration 0026).
// Pure: no server or DOM imports.
import { ListingStatus } from "../contract/enums.ts";
import type { PreflightProblem } from "./preflight.ts";

/** The statuses in which a listing counts as the product being on the shop's site. */
export const LISTED_STATUSES: readonly ListingStatus[] = [
  ListingStatus.Pending,
  ListingStatus.Publishing,
  ListingStatus.Active,
  ListingStatus.Paused,
  ListingStatus.UnderReview,
];

export const DUPLICATE_PROBLEM_CODE = "duplicate";

/** Whether a listing in this status keeps its product on the shop's site. */
export const isListed = (status: number) => (LISTED_STATUSES as readonly number[]).includes(status);

/**
 * The problem of a pair whose product is already listed on the shop's site (itemId: the live item, null while its
 * listing is still waiting or being sent): an error that skips the pair, or a warning when the seller asked for a copy.
 */
export function duplicateProblem(itemId: string | null, allowDuplicate: boolean): PreflightProblem {
  const where = itemId ? `该商品已在此店铺站点刊登（${itemId}）` : "该商品正在此店铺站点刊登中";
  return allowDuplicate
    ? { code: DUPLICATE_PROBLEM_CODE, severity: "warning", field: null, message: `${where}，将再刊登一份`, fix: "request" }
    : {
        code: DUPLICATE_PROBLEM_CODE,
        severity: "error",
        field: null,
        message: `${where}；如需再刊登一份，请勾选“允许重复刊登”`,
        fix: "request",
      };
}

/** The pre-flight pairs whose product is already on the shop's site, with the reason (the publish screen lists them). */
export function listedPairs<P extends { problems: readonly { code: string; message: string }[] }>(
  pairs: readonly P[],
): (P & { listedReason: string })[] {
  return pairs.flatMap((p) => {
    const problem = p.problems.find((x) => x.code === DUPLICATE_PROBLEM_CODE);
    return problem ? [{ ...p, listedReason: problem.message }] : [];
  });
}

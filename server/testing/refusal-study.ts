// How many marketplace refusals the publish pre-flight check prevents (issue 15): a mixed batch of products, each kind
// with one defect a seller really has (a required attribute not filled, a list value that is not one of the category's,
// a price under the category's minimum, a category that is not a leaf, no picture, no weight), is sent to the sandbox
// twice in the same run:
//   without the check  every pair's item body, built by the same planner, POSTed as is (what a publisher without a
//                      pre-flight would send), and the sandbox's 4xx counted;
//   with the check     the same products through Publish, which skips what the pre-flight refuses; the listings the
//                      sandbox still refused counted.
// Used by bench/preflight-refusals.ts (the numbers in bench/RESULTS.md) and by its test, which asserts the result.
import { and, eq } from "drizzle-orm";
import { meliAccounts } from "../db/schema.ts";
import { inScope } from "../db/scope.ts";
import { createFreightService } from "../modules/freight/service.ts";
import { createPlanner } from "../modules/publishing/plan.ts";
import { localItemBody } from "../modules/publishing/item-body.ts";
import type { Category } from "../sandbox/categories.ts";
import { ListingStatus, PublishBatchStatus } from "#shared/contract/enums.ts";
import { publishRequest } from "#shared/contract/publish.ts";
import { MeliApiError } from "../integrations/mercadolibre/errors.ts";
import type { TestServer } from "./harness.ts";
import { plainLeaf, requiredAttributes } from "./sandbox-kit.ts";
import { connectPublishingShop, ean13s, syncCategories, until } from "./publish-kit.ts";

const DEFECTS = ["none", "missingAttribute", "invalidValue", "belowMinimum", "notLeaf", "noPicture", "noWeight"] as const;
type Defect = (typeof DEFECTS)[number];

export type DefectRow = {
  defect: Defect;
  pairs: number;
  /** Pairs the pre-flight check refused (errors), before any call. */
  checkRefused: number;
  /** Without the check: bodies sent, and the sandbox's refusals with their cause codes. */
  sentWithout: number;
  refusedWithout: number;
  causes: string[];
  /** Pairs without the check that could not even be built into a body (no price or title). */
  unbuildable: number;
  /** With the check: listings created, and listings the sandbox still refused. */
  createdWith: number;
  refusedWith: number;
};

/** The product of one defect kind on the leaf (Mexico). */
function productOf(defect: Defect, leaf: Category, parent: string, n: number): Record<string, unknown> {
  const attrs = requiredAttributes(leaf).map((a) => ({
    nameId: a.id,
    name: a.id,
    valueId: (a as { value_id?: string }).value_id ?? null,
    value: (a as { value_name?: string }).value_name ?? null,
  }));
  const listAttr = attrs.find((a) => a.valueId);
  const withoutOne = attrs.filter((a) => a.nameId !== (attrs.find((x) => x.nameId !== "GTIN" && x.nameId !== "BRAND") ?? attrs[0]).nameId);
  return {
    title: { es: `Organizador de escritorio modelo ${n}`, zh: `桌面收纳盒 ${n}` },
    description: { es: "Organizador de plástico con tres compartimentos" },
    price: defect === "belowMinimum" ? 0.5 : 120,
    currency: "CNY",
    sku: `STUDY-${n}`,
    stock: 5,
    weight: defect === "noWeight" ? null : 350,
    size: "20x12x8",
    images: defect === "noPicture" ? [] : [`https://img.example.com/study-${n}-1.jpg`, `https://img.example.com/study-${n}-2.jpg`],
    cateInfo: {
      site: 1,
      cateId: defect === "notLeaf" ? parent : leaf.id,
      attrs:
        defect === "missingAttribute"
          ? withoutOne
          : defect === "invalidValue" && listAttr
            ? attrs.map((a) => (a === listAttr ? { ...a, valueId: "999999999" } : a))
            : attrs,
    },
  };
}

/** Runs the study on a started test server (its sandbox mounted): `perDefect` products of each kind on Mexico. */
export async function refusalStudy(s: TestServer, perDefect: number): Promise<DefectRow[]> {
  await syncCategories(s, [1]);
  const tenant = await s.createTenant();
  const pairsTotal = perDefect * DEFECTS.length;
  // Codes for both sides: the check's publish takes them from the pool, the unchecked bodies from the rest.
  const codes = ean13s(pairsTotal * 2);
  const groupId = await connectPublishingShop(s, tenant, { nickname: "REFUSALSTUDY", site: "MLM", sites: [1] }, codes.slice(0, pairsTotal));
  const spare = codes.slice(pairsTotal);

  const sandbox = s.deps.sandbox!;
  const leaf = plainLeaf(sandbox, "MLM");
  const parent = sandbox.store.trees.MLM.all.find((c) => !c.leaf)!.id;
  const defectOf = new Map<string, Defect>();
  for (const defect of DEFECTS)
    for (let i = 0; i < perDefect; i++) {
      const res = await s.api("POST", "/api/Product/CreateOrUpdateProduct", {
        token: tenant.token,
        body: productOf(defect, leaf, parent, defectOf.size),
      });
      if (res.status !== 200) throw new Error(`product: ${res.raw}`);
      defectOf.set(res.body.result.id, defect);
    }
  const productIds = [...defectOf.keys()];
  const accounts = await inScope(s.database.db, { tenantId: tenant.tenantId }, (tx) =>
    tx
      .select({ id: meliAccounts.id, site: meliAccounts.site, custId: meliAccounts.custId, isEnabled: meliAccounts.isEnabled })
      .from(meliAccounts)
      .where(and(eq(meliAccounts.tenantId, tenant.tenantId), eq(meliAccounts.groupId, groupId))),
  );
  const body = { accountGroupId: groupId, sites: [1], productIds, listingType: "gold_special" };

  const rows = new Map<Defect, DefectRow>(
    DEFECTS.map((d) => [
      d,
      {
        defect: d,
        pairs: 0,
        checkRefused: 0,
        sentWithout: 0,
        refusedWithout: 0,
        causes: [],
        unbuildable: 0,
        createdWith: 0,
        refusedWith: 0,
      },
    ]),
  );

  // Without the check: the planner's bodies, sent whatever the pre-flight said.
  const request = publishRequest.parse(body);
  const plans = await inScope(s.database.db, { tenantId: tenant.tenantId }, (tx) =>
    createPlanner(s.deps.secrets, createFreightService(s.deps))(tx, { tenantId: tenant.tenantId, request, productIds, accounts }),
  );
  const shop = s.deps.meli.shop({ tenantId: tenant.tenantId, groupId });
  // A pair the planner could not price (a category that is not a leaf has no fees) is sent as a sound product's body
  // in its category: what a publisher that does not look at the category would send.
  const template = [...plans.values()].flat().find((p) => p.item && !p.problems.some((x) => x.severity === "error"))?.item;
  for (const [productId, list] of plans) {
    const row = rows.get(defectOf.get(productId)!)!;
    for (const plan of list) {
      row.pairs++;
      if (plan.problems.some((p) => p.severity === "error")) row.checkRefused++;
      const planned = plan.item ?? (template && plan.cateId ? { ...template, categoryId: plan.cateId } : null);
      if (!planned) {
        row.unbuildable++;
        continue;
      }
      const needed = Math.max(plan.gtinNeeded, 1);
      const gtins = spare.splice(0, needed);
      const item = {
        ...planned,
        key: `study-${productId}`,
        gtin: planned.variants.length ? null : gtins[0],
        variants: planned.variants.map((v, i) => ({ ...v, gtin: v.gtin ?? gtins[i] ?? null })),
      };
      row.sentWithout++;
      try {
        await shop.send("POST", "/items", { body: localItemBody(item) });
      } catch (e) {
        if (!(e instanceof MeliApiError) || (e.kind !== "validation" && e.kind !== "rejected")) throw e;
        row.refusedWithout++;
        for (const c of e.meli.cause) if (c.code && c.type !== "warning" && !row.causes.includes(c.code)) row.causes.push(c.code);
      }
    }
  }

  // With the check: Publish, which skips what the pre-flight refuses.
  const res = await s.api("POST", "/api/MeliStatNew/Publish", { token: tenant.token, body });
  if (res.status !== 200) throw new Error(`Publish: ${res.raw}`);
  const batchId = res.body.result.id as string;
  await until(
    async () => (await s.api("POST", "/api/MeliStatNew/GetPublishBatchesByPage", { token: tenant.token, body: {} })).body.result.items[0],
    (b) => b.status !== PublishBatchStatus.Queued && b.status !== PublishBatchStatus.Running,
    "publish batch",
    600_000,
  );
  for (let skip = 0; ; skip += 100) {
    const r = await s.api("POST", "/api/MeliStatNew/GetPublishBatchListings", {
      token: tenant.token,
      body: { batchId, skipCount: skip, maxResultCount: 100 },
    });
    const items = r.body.result.items as { productId: string; status: number }[];
    for (const l of items) {
      const row = rows.get(defectOf.get(l.productId)!)!;
      if (l.status === ListingStatus.Active || l.status === ListingStatus.Paused) row.createdWith++;
      if (l.status === ListingStatus.Refused || l.status === ListingStatus.Failed) row.refusedWith++;
    }
    if (items.length < 100) break;
  }
  return [...rows.values()];
}

/** The totals of a study: refusals prevented, refusals left, and pairs the check refused that the sandbox took. */
export function studyTotals(rows: DefectRow[]) {
  const sum = (k: keyof DefectRow) => rows.reduce((a, r) => a + (r[k] as number), 0);
  const refusedWithout = sum("refusedWithout");
  const refusedWith = sum("refusedWith");
  return {
    pairs: sum("pairs"),
    checkRefused: sum("checkRefused"),
    refusedWithout,
    refusedWith,
    prevented: refusedWithout - refusedWith,
    unbuildable: sum("unbuildable"),
    /** The check refused more than the sandbox did: rules the sandbox does not enforce (stricter than needed there). */
    stricterThanSandbox: Math.max(0, sum("checkRefused") - refusedWithout - sum("unbuildable")),
  };
}

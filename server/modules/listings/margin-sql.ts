// The stored margin (issue 32, migration 0034): the publish formula's margin now of each listing, set-based in SQL. The
// expression is shared/publish/price.ts sitePrice with atPrice (step 6 at the price the listing has) as
// listings/meli-price.ts priceByFormula feeds it: the same inputs (the product's price and currency, today's rates,
// the category's cached fees else its row's percentage, the freight its breakdown kept), the same integer minor units
// and the same roundings (half up; the cost's exact, by div and mod); a listing the formula cannot price gets null.
// margin-drift.test.ts checks it against the TypeScript on the same listings. One UPDATE computes a range of one
// tenant's listings and writes only the rows whose margin moved; margin_at (indexed by the stale rows' partial index)
// is set only on a row marked stale, so a row whose level stays can be a heap-only update where its page has room.
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import { MELI_SITES } from "#shared/contract/meli.ts";
import { DEFAULT_MIN_MARGIN } from "#shared/publish/margin.ts";
import { currencyDecimals } from "#shared/publish/price.ts";

/** Currencies without cents (currencyDecimals 0), as a SQL list. */
const zeroDecimal = [...new Set(Object.values(MELI_SITES).map((s) => s.currency))]
  .filter((c) => currencyDecimals(c) === 0)
  .map((c) => `'${c}'`)
  .join(", ");
/** Minor units in one unit of a currency (a SQL text expression), as numeric. */
const unitOf = (currency: string) => `(case when upper(${currency}) in (${zeroDecimal}) then 1 else 100 end)::numeric`;
/** The site's currency (MELI_SITES). */
const siteCurrency = `(case l.site ${Object.entries(MELI_SITES)
  .map(([n, s]) => `when ${Number(n)} then '${s.currency}'`)
  .join(" ")} end)`;
/** A stored breakdown (margin-drift.ts breakdownOf): margin and price numbers, currency a text. */
const isBreakdown = `(jsonb_typeof(l.price_content->'margin') = 'number' and jsonb_typeof(l.price_content->'price') = 'number'
  and jsonb_typeof(l.price_content->'currency') = 'string')`;
const minBasisPoints = `coalesce(trunc(a.min_margin * 100), ${Math.round(DEFAULT_MIN_MARGIN * 100)})`;

/**
 * Each listing of `where` (a condition on `l`, the listings row) with its margin when priced and now, now's % and
 * level. Steps as sitePrice's: cost = price × rate(product) ÷ rate(formula currency), half up; local: sale fee = price ×
 * fee% (half up), the fixed fee under its threshold, net = price − fees; global selling: net = the net proceeds sent −
 * the listing fee, the buyer's price = net ÷ (1 − fee%); margin = net − cost − freight.
 */
export const marginSelect = (where: SQL) => sql`select l.tenant_id, l.id,
    case when ${sql.raw(isBreakdown)} then (l.price_content->>'margin')::numeric::bigint end as margin_priced,
    case when v.ok then m.margin end as margin,
    case when v.ok then case when m.buyer > 0 then round(round(m.margin * 10000 / m.buyer) / 100, 2) else 0 end end as pct,
    case when v.ok then case when m.margin < 0 then 2 when ${sql.raw(minBasisPoints)} = 0 then 0
      when m.buyer <= 0 or m.margin * 10000 < ${sql.raw(minBasisPoints)} * m.buyer then 1 else 0 end end::smallint as level
  from listings l
  join meli_account_groups g on g.tenant_id = l.tenant_id and g.id = l.account_group_id
  left join meli_accounts a on a.tenant_id = l.tenant_id and a.id = l.account_id
  left join products p on p.tenant_id = l.tenant_id and p.id = l.product_id
  cross join lateral (select g.is_cbt or l.site = 5 as cbt, case when g.is_cbt then 5 else l.site end as cate_site,
    coalesce(l.listing_type, 'gold_special') as lt, upper(trim(p.currency)) as pcur) k
  cross join lateral (select case when k.cbt then 'USD' else ${sql.raw(siteCurrency)} end as cur) kc
  left join currencies cf on upper(cf.code) = k.pcur
  left join currencies ct on upper(ct.code) = kc.cur
  left join currencies cs on k.cbt and upper(cs.code) = ${sql.raw(siteCurrency)}
  left join meli_categories c on c.site = k.cate_site and c.cate_id = l.cate_id
  left join meli_listing_fees f on k.lt <> 'free' and f.site = k.cate_site and f.cate_id = l.cate_id and f.listing_type = k.lt
  cross join lateral (select ${sql.raw(unitOf("kc.cur"))} as unit,
    ${sql.raw(unitOf("(l.price_content->>'currency')"))} as pc_unit,
    case when k.lt = 'free' then 0
      else round(coalesce(f.percentage_fee, case when k.lt = 'gold_pro' then c.premium_fee else c.classic_fee end) * 10000) end as fee_ppm,
    (not k.cbt and k.lt <> 'free' and f.fixed_fee > 0) as has_fixed) u
  cross join lateral (select
    case when not k.cbt then round(l.price * u.unit)
      when ${sql.raw(isBreakdown)} then round((l.price_content->>'price')::numeric / u.pc_unit * u.unit) end as sent,
    case when jsonb_typeof(l.price_content->'freight') = 'number' and (l.price_content->>'freight')::numeric > 0
      and jsonb_typeof(l.price_content->'currency') = 'string' and l.price_content->>'currency' <> ''
      then round((l.price_content->>'freight')::numeric / u.pc_unit * u.unit) else 0 end as freight,
    case when u.has_fixed then round(f.fixed_fee * u.unit) else 0 end as fixed_amt,
    case when u.has_fixed and f.fixed_fee_under is not null then round(f.fixed_fee_under * u.unit) end as fixed_under,
    case when k.lt = 'free' or f.listing_fee is null then 0 else round(f.listing_fee * u.unit) end as listing_fee,
    p.price * cf.rate * u.unit as cost_num) s
  cross join lateral (select a.id is not null and p.id is not null and p.price > 0 and k.pcur <> '' and cf.rate > 0
    and ct.rate > 0 and u.fee_ppm >= 0 and u.fee_ppm < 1000000 and s.sent is not null and (not k.cbt or cs.rate > 0) as ok,
    div(s.cost_num, nullif(ct.rate, 0)) as cost_q) v
  cross join lateral (select case when v.ok then v.cost_q + case when 2 * (s.cost_num - v.cost_q * ct.rate) >= ct.rate then 1 else 0 end end as cost,
    case when k.cbt then round(s.sent * 1000000 / nullif(1000000 - u.fee_ppm, 0)) else s.sent end as buyer,
    case when k.cbt then s.sent - s.listing_fee
      else s.sent - round(s.sent * u.fee_ppm / 1000000)
        - case when s.fixed_amt > 0 and (s.fixed_under is null or s.sent < s.fixed_under) then s.fixed_amt else 0 end
        - s.listing_fee end as net) w
  cross join lateral (select (w.net - w.cost - s.freight)::bigint as margin, w.buyer) m
  where ${where}`;

/**
 * Computes and stores the margin of the listings of `where` (a condition on `l`), writing only those whose stored
 * margin moved or was to compute again; answers how many were written.
 */
export async function storeMargins(tx: Tx, where: SQL): Promise<number> {
  const rows = rowsOf<{ n: number }>(
    await tx.execute(sql`with x as (${marginSelect(where)}),
      written as (update listings t set margin_priced = x.margin_priced, margin_now = x.margin, margin_now_percent = x.pct,
          margin_level = x.level, margin_at = coalesce(t.margin_at, now())
        from x where t.tenant_id = x.tenant_id and t.id = x.id
          and (t.margin_at is null or t.margin_now is distinct from x.margin or t.margin_level is distinct from x.level
            or t.margin_priced is distinct from x.margin_priced or t.margin_now_percent is distinct from x.pct)
        returning 1)
      select count(*)::int as n from written`),
  );
  return rows[0]?.n ?? 0;
}

/** Listings whose margin is to compute again (new, or their price changed), at most this many a call. */
const STALE_REFRESH_MAX = 50_000;

/** Computes the margin of a tenant's listings marked to compute again (the partial index finds them). */
export const refreshStaleMargins = (tx: Tx, tenantId: string, max = STALE_REFRESH_MAX) =>
  storeMargins(
    tx,
    sql`l.tenant_id = ${tenantId} and l.id in (select id from listings where tenant_id = ${tenantId} and margin_at is null limit ${max})`,
  );

-- Issue 28: the shop's minimum margin in % of the price (最低利润率). The pre-flight, the side panel and the order list
-- warn in red under it; null means the default (shared/publish/margin.ts DEFAULT_MIN_MARGIN, 10 %).
ALTER TABLE "meli_accounts" ADD COLUMN "min_margin" numeric(5, 2);

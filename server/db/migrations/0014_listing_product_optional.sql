-- A listing imported from Mercado Libre (PullMarketStat) that no product's SKU matches has no product.
ALTER TABLE "listings" ALTER COLUMN "product_id" DROP NOT NULL;

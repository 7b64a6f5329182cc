// /payment/package's URL state: the page of the company's purchase list.
import { z } from "zod";
import { PAGE_SIZE_OPTIONS } from "#shared/ui/data-table.tsx";
import { pageParam, pageSizeParam } from "../../components/list/url-params.ts";
import type { MyOrdersQuery } from "./api/packages.ts";

/** ?page=&size= */
export const myOrderListSchema = z.object({ page: pageParam(), size: pageSizeParam(PAGE_SIZE_OPTIONS, 10) });
export type MyOrderListState = z.output<typeof myOrderListSchema>;

export const toMyOrdersQuery = (s: MyOrderListState): MyOrdersQuery => ({ SkipCount: (s.page - 1) * s.size, MaxResultCount: s.size });

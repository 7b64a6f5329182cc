// The building blocks of a list's URL schema (useListUrlState): each reads one search param and falls back to its
// default (`.catch`) when the param is missing or broken, so an old or hand-edited link still opens a sane page.
import { z } from "zod";
import { parseLocalDate } from "../../lib/format.ts";

/** The "no filter" value of a facet. */
export const ALL = "all";

const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a text is a GUID (the server's ids). */
export const isGuid = (value: string) => GUID_PATTERN.test(value);

/** 1-based page number. */
export const pageParam = () => z.coerce.number().int().min(1).catch(1);

/** One of the list's page sizes. */
export const pageSizeParam = (sizes: readonly number[], fallback: number) =>
  z.coerce
    .number()
    .refine((n) => sizes.includes(n))
    .catch(fallback);

/** Free text, cut to `max` characters. */
export const textParam = (max: number) =>
  z
    .string()
    .transform((s) => s.slice(0, max))
    .catch("");

/** One of `values` (a facet), or "all". */
export const choiceParam = (values: readonly (string | number)[], fallback: string = ALL) =>
  z
    .string()
    .refine((v) => values.map(String).includes(v))
    .catch(fallback);

/** A user or label id (lower case), or "all". */
export const idParam = () =>
  z
    .string()
    .refine(isGuid)
    .transform((v) => v.toLowerCase())
    .catch(ALL);

/** yyyy-mm-dd (a local day), or "". */
export const dateParam = () =>
  z
    .string()
    .refine((v) => !!parseLocalDate(v))
    .catch("");

const DECIMAL = /^\d+(\.\d+)?$/;

/** Whether a text is a plain non-negative decimal ("12", "0.5"). */
export const isDecimal = (value: string) => DECIMAL.test(value.trim());

/** A non-negative decimal as text, or "". */
export const decimalParam = () => z.string().trim().regex(DECIMAL).catch("");

/** The infringement flag filter of the collection and product lists. */
export const infringementParam = () => z.enum([ALL, "yes", "no"]).catch(ALL);

// Building blocks for every call's schema: query values arrive as strings, lists as repeated keys, bodies as JSON.
import { z } from "zod";

/** A GUID as ABP writes it (any case). */
export const id = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, "must be a GUID")
  .transform((s) => s.toLowerCase());

/** A boolean in a query string: true/false (any case), 1/0. */
export const queryBool = z.preprocess((v) => {
  if (typeof v !== "string") return v;
  const s = v.toLowerCase();
  return s === "true" || s === "1" ? true : s === "false" || s === "0" ? false : v;
}, z.boolean());

export const queryInt = (min = -2147483648, max = 2147483647) => z.coerce.number().int().min(min).max(max);

/** A repeated query key (sites=1&sites=2) or a single value, always read as a list. */
export const queryList = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? v : Array.isArray(v) ? v : [v]), z.array(item));

/** ISO 8601 date or date-time, read as a Date. */
export const isoDate = z.coerce.date({ error: "must be an ISO 8601 date" });

export const MAX_PAGE_SIZE = 1000;

/** Sorting as "field asc|desc", one of the fields the call allows. */
export const sorting = <const F extends readonly [string, ...string[]]>(fields: F) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^(${fields.join("|")})( (asc|desc))?$`, "i"), `must be one of ${fields.join(", ")} with asc or desc`)
    .optional();

/** Paging of a GET list call (PascalCase query names). */
export const pagedQuery = <const F extends readonly [string, ...string[]]>(sortFields: F) =>
  z.object({
    SkipCount: queryInt(0).default(0),
    MaxResultCount: queryInt(1, MAX_PAGE_SIZE).default(10),
    Sorting: sorting(sortFields),
  });

/** Paging of a POST list call (camelCase body names). */
export const pagedBody = <const F extends readonly [string, ...string[]]>(sortFields: F) =>
  z.object({
    skipCount: z.number().int().min(0).default(0),
    maxResultCount: z.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
    sorting: sorting(sortFields),
  });

export const pagedResult = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), totalCount: z.number().int() });
export type PagedResult<T> = { items: T[]; totalCount: number };

export const errorInfo = z.object({
  code: z.string().nullable(),
  message: z.string(),
  details: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  validationErrors: z.array(z.object({ message: z.string(), members: z.array(z.string()) })).nullable(),
});
export const errorResponse = z.object({ error: errorInfo });
export type ErrorInfo = z.infer<typeof errorInfo>;

/** The user-chosen password rule: 6 to 128 characters with at least one letter and one digit. */
export const password = z
  .string()
  .min(6, "密码至少6位")
  .max(128, "密码最多128位")
  .regex(/[A-Za-z]/, "密码需包含字母")
  .regex(/[0-9]/, "密码需包含数字");

export const userName = z
  .string()
  .trim()
  .min(2, "用户名至少2个字符")
  .max(64, "用户名最多64个字符")
  .regex(/^[\p{L}\p{N}_.@+-]+$/u, "用户名只能包含字母、数字和 _ . @ + -");

export const email = z.string().trim().max(256).email("邮箱格式不正确");
export const phone = z
  .string()
  .trim()
  .max(32)
  .regex(/^[0-9+\- ]*$/, "手机号格式不正确");
export const text = (max: number) => z.string().max(max);

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

// yyyy-mm-dd, optionally with a time (T or a space, seconds and fraction optional) and an offset (Z, ±hh:mm, ±hhmm).
const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const isoDateMessage = "must be an ISO 8601 date or date-time string";

/**
 * An ISO 8601 date (2026-11-26) or date-time (2026-11-26T08:30:00Z), read as a Date. Only a string: a boolean, a number
 * or an object is refused (a coerce would read `true` as 1970-01-01), and so is a day that does not exist (02-31).
 */
export const isoDate = z
  .string({ error: isoDateMessage })
  .meta({ format: "date-time", description: "ISO 8601: 2026-11-26 or 2026-11-26T08:30:00Z" })
  .transform((s, ctx) => {
    const text = s.trim();
    const m = isoDatePattern.exec(text);
    const date = m ? new Date(text) : null;
    // Date would roll 2026-02-31 over to March 3 rather than refuse it.
    const dayExists = m ? Number(m[3]) >= 1 && Number(m[3]) <= new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate() : false;
    if (!date || Number.isNaN(date.getTime()) || !dayExists) {
      ctx.addIssue({ code: "custom", message: isoDateMessage });
      return z.NEVER;
    }
    return date;
  });

export const MAX_PAGE_SIZE = 1000;

/** Sorting as "field asc|desc", one of the fields the call allows. */
const sorting = <const F extends readonly [string, ...string[]]>(fields: F) =>
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

const errorInfo = z.object({
  code: z.string().nullable(),
  message: z.string(),
  details: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  validationErrors: z.array(z.object({ message: z.string(), members: z.array(z.string()) })).nullable(),
});
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

// The Mercado Libre bodies the adapter reads, as zod schemas: the fields we use are checked, the rest of each object is
// kept as sent (loose objects), so later areas (category sync, publishing) find every field Mercado Libre answered.
import { z } from "zod";

/** Mercado Libre's site ids: the four local sites and global selling. */
const MELI_SITE_CODES = ["MLM", "MLB", "MLC", "MCO", "CBT"] as const;
export type MeliSiteCode = (typeof MELI_SITE_CODES)[number];
export const isMeliSiteCode = (s: string): s is MeliSiteCode => (MELI_SITE_CODES as readonly string[]).includes(s);

/** An id Mercado Libre sends as a number or a digit string, read as a string. */
export const mlId = z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform((v) => String(v));

/** POST /oauth/token. */
export const tokenAnswer = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().positive(),
  scope: z.string().optional(),
  user_id: mlId,
  refresh_token: z.string().min(1).optional(),
});
export type TokenAnswer = z.infer<typeof tokenAnswer>;

/** Mercado Libre's error body (the token endpoint adds error_description). */
export const errorBody = z.looseObject({
  message: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  status: z.number().optional(),
  cause: z
    .array(
      z.looseObject({
        cause_id: z.number().optional(),
        type: z.string().optional(),
        code: z.string().optional(),
        references: z.array(z.string()).optional(),
        message: z.string().optional(),
      }),
    )
    .optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;
export type MeliCause = NonNullable<ErrorBody["cause"]>[number];

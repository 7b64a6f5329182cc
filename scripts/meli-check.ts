// `npm run meli:check`: the read-only live check against Mercado Libre (server/integrations/mercadolibre/live-check.ts).
// Settings from the environment: MELI_API_URL, MELI_CLIENT_ID, MELI_CLIENT_SECRET and one seller's token, either
// MELI_ACCESS_TOKEN (valid 6 hours; nothing is spent) or MELI_REFRESH_TOKEN (spent by the check: the new one is
// printed, and a shop bound in the product with the same seller must then be authorized again). Prints one row per
// call and exits 1 when an answer did not match the adapter's schemas.
import { z } from "zod";
import { openDatabase } from "../server/db/client.ts";
import { createMeliClient } from "../server/integrations/mercadolibre/client.ts";
import { checkTable, runLiveCheck } from "../server/integrations/mercadolibre/live-check.ts";
import { globalFetch } from "../server/integrations/mercadolibre/transport.ts";
import { createSecretBox } from "../server/security/secrets.ts";

const settings = z
  .object({
    MELI_API_URL: z.url().default("https://api.mercadolibre.com"),
    MELI_CLIENT_ID: z.string().min(1),
    MELI_CLIENT_SECRET: z.string().min(1),
    MELI_ACCESS_TOKEN: z.string().min(1).optional(),
    MELI_REFRESH_TOKEN: z.string().min(1).optional(),
  })
  .refine((e) => e.MELI_ACCESS_TOKEN || e.MELI_REFRESH_TOKEN, { message: "set MELI_ACCESS_TOKEN or MELI_REFRESH_TOKEN" });

const parsed = settings.safeParse(process.env);
if (!parsed.success) {
  console.error(`meli:check: ${parsed.error.issues.map((i) => `${i.path.join(".") || "settings"}: ${i.message}`).join("; ")}`);
  process.exit(2);
}
const env = parsed.data;

// The client keeps its rate buckets in a database: a throwaway embedded one.
const database = await openDatabase({ kind: "pglite", inProcess: true });
await database.migrate();
const meli = createMeliClient({
  apiUrl: env.MELI_API_URL,
  authUrl: env.MELI_API_URL,
  clientId: env.MELI_CLIENT_ID,
  clientSecret: env.MELI_CLIENT_SECRET,
  fetch: globalFetch,
  database,
  secrets: createSecretBox("meli-check: nothing is stored"),
});
try {
  let accessToken = env.MELI_ACCESS_TOKEN;
  let userId = "";
  if (!accessToken) {
    const pair = await meli.refreshGrant(env.MELI_REFRESH_TOKEN!);
    accessToken = pair.access_token;
    userId = pair.user_id;
    console.log(`refresh token spent; the new one: ${pair.refresh_token ?? "(none: offline_access is off)"}`);
  }
  const rows = await runLiveCheck({ seller: meli.withToken(accessToken, userId || "live-check"), open: meli.public });
  console.log(checkTable(rows));
  process.exitCode = rows.some((r) => r.outcome === "mismatch") ? 1 : 0;
} finally {
  await database.close();
}

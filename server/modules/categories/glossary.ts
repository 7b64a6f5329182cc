// Applies the category glossary (glossary-data.ts): a category still without a Chinese name gets the glossary's name
// for its site name, in one statement per site. Run by the sync after each tree is written, so a fresh start's picker
// searches in Chinese before any translation service is configured; a name AckCategory or the host set stays.
import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import { SANDBOX_GLOSSARY, SITE_GLOSSARY } from "./glossary-data.ts";

let entries: { name: string; zh: string }[] | null = null;

/** name → Chinese name, from every line of the glossary (the first line naming a name wins). */
function glossaryEntries(): { name: string; zh: string }[] {
  if (entries) return entries;
  const byName = new Map<string, string>();
  for (const line of `${SANDBOX_GLOSSARY}\n${SITE_GLOSSARY}`.split("\n")) {
    const [zh, ...names] = line.split(" | ").map((x) => x.trim());
    if (!zh || !names.length) continue;
    for (const name of names) if (name && !byName.has(name)) byName.set(name, zh);
  }
  entries = [...byName].map(([name, zh]) => ({ name, zh }));
  return entries;
}

/** Fills the Chinese names the site's categories lack from the glossary; answers how many were filled. */
export async function applyGlossary(tx: Tx, site: number): Promise<number> {
  const json = JSON.stringify(glossaryEntries());
  return rowsOf(
    await tx.execute(sql`update meli_categories c set zh = v.zh, last_modification_time = now()
      from jsonb_to_recordset(${json}::jsonb) as v(name text, zh text)
      where c.site = ${site} and c.zh is null and c.name = v.name
      returning c.cate_id`),
  ).length;
}

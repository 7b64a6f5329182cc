// AckCategory and AckAttr: the Chinese names (zh) of categories, and of attributes and their values, through the
// translation service the host configured (settings Translate.*). Only names without a Chinese name are sent, each
// distinct text once per source language (a site's language: es, pt for Brazil, en for CBT); a name set by hand stays.
// A job with a task record (TaskType 9, like the sync); safe to run again (it only fills what is still missing).
import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import { hostAllScope, inScope } from "../../db/scope.ts";
import { updateTask } from "../../jobs/tasks.ts";
import { translatorFromSettings } from "../../integrations/translate/index.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { TranslationError, type Translator } from "../../integrations/translate/types.ts";
import { TaskStatus } from "#shared/contract/enums.ts";
import { siteLanguage, type MeliSiteNumber } from "#shared/contract/meli.ts";
import type { CategoryAttribute } from "#shared/contract/category.ts";
import { rebuildSiteTree, refreshFullZh } from "./store.ts";
import { siteName, type CategoryDeps } from "./sync.ts";
import { worker, type JobWorker } from "../../jobs/queue.ts";

export const CHINESE_JOB = "categories.chinese";
/** Texts per translation round (the adapter splits further by the provider's limits). */
const ROUND = 200;
/** Attribute rows read and written per statement. */
const ROWS = 200;

export type ChineseJob = { taskId: string; kind: "categories" | "attributes"; sites: MeliSiteNumber[] };

/** Refuses at once, with the translation service's own message, when no usable service is configured. */
export async function checkTranslator(tx: Tx, secrets: SecretBox): Promise<void> {
  await translatorFromSettings(tx, secrets);
}

/** Translates distinct texts into Chinese, ROUND at a time, reporting each round. Blank answers are dropped. */
async function toChinese(t: Translator, texts: string[], from: string, onRound: (n: number) => Promise<void>) {
  const out = new Map<string, string>();
  for (let i = 0; i < texts.length; i += ROUND) {
    const part = texts.slice(i, i + ROUND);
    const zh = await t.translate(part, from, "zh");
    part.forEach((text, j) => {
      const v = zh[j]?.trim();
      if (v) out.set(text, v.slice(0, 500));
    });
    await onRound(part.length);
  }
  return out;
}

async function categoriesToChinese(
  deps: CategoryDeps,
  job: ChineseJob,
  t: Translator,
  report: (n: number, total: number) => Promise<void>,
) {
  const db = deps.database.db;
  const bySite = new Map<number, string[]>();
  for (const site of job.sites) {
    const names = rowsOf<{ name: string }>(
      await inScope(db, hostAllScope, (tx) =>
        tx.execute(sql`select distinct name from meli_categories where site = ${site} and zh is null order by name`),
      ),
    ).map((r) => r.name);
    bySite.set(site, names);
  }
  // One round per language: Mexico, Chile and Colombia share most Spanish names.
  const byLanguage = new Map<string, Set<string>>();
  for (const [site, names] of bySite) {
    const set = byLanguage.get(siteLanguage(site)) ?? new Set<string>();
    for (const n of names) set.add(n);
    byLanguage.set(siteLanguage(site), set);
  }
  const total = [...byLanguage.values()].reduce((n, s) => n + s.size, 0);
  let done = 0;
  let named = 0;
  for (const [lang, set] of byLanguage) {
    const dict = await toChinese(t, [...set], lang, async (n) => report((done += n), total));
    const sites = [...bySite.keys()].filter((s) => siteLanguage(s) === lang);
    const json = JSON.stringify([...dict].map(([name, zh]) => ({ name, zh })));
    named += await inScope(db, hostAllScope, async (tx) => {
      const rows = rowsOf(
        await tx.execute(sql`update meli_categories c set zh = v.zh, last_modification_time = now()
          from jsonb_to_recordset(${json}::jsonb) as v(name text, zh text)
          where c.site in (select jsonb_array_elements_text(${JSON.stringify(sites)}::jsonb)::int)
            and c.name = v.name and c.zh is null
          returning c.cate_id`),
      ).length;
      for (const site of sites) {
        await refreshFullZh(tx, site);
        await rebuildSiteTree(tx, site);
      }
      return rows;
    });
  }
  return `已为 ${named} 个类目补充中文名（${job.sites.map(siteName).join("、")}）`;
}

async function attributesToChinese(
  deps: CategoryDeps,
  job: ChineseJob,
  t: Translator,
  report: (n: number, total: number) => Promise<void>,
) {
  const db = deps.database.db;
  // Distinct attribute and value names still without Chinese, per source language.
  const byLanguage = new Map<string, Set<string>>();
  for (const site of job.sites) {
    const texts = rowsOf<{ text: string }>(
      await inScope(db, hostAllScope, (tx) =>
        tx.execute(sql`select distinct x.text from meli_category_attributes ma
          cross join lateral jsonb_array_elements(ma.attributes) a
          cross join lateral (
            select a->>'name' as text where a->>'zh' is null
            union all
            select v->>'name' from jsonb_array_elements(a->'values') v where v->>'zh' is null
          ) x
          where ma.site = ${site} and x.text is not null and x.text <> ''`),
      ),
    ).map((r) => r.text);
    const set = byLanguage.get(siteLanguage(site)) ?? new Set<string>();
    for (const x of texts) set.add(x);
    byLanguage.set(siteLanguage(site), set);
  }
  const total = [...byLanguage.values()].reduce((n, s) => n + s.size, 0);
  let done = 0;
  const dicts = new Map<string, Map<string, string>>();
  for (const [lang, set] of byLanguage) dicts.set(lang, await toChinese(t, [...set], lang, async (n) => report((done += n), total)));

  // Applied per site in pages of rows: each row's list rewritten in JS, only changed rows written back (one statement).
  let changedRows = 0;
  for (const site of job.sites) {
    const dict = dicts.get(siteLanguage(site))!;
    let after = "";
    for (;;) {
      const rows = rowsOf<{ cateId: string; attributes: CategoryAttribute[] }>(
        await inScope(db, hostAllScope, (tx) =>
          tx.execute(sql`select cate_id as "cateId", attributes from meli_category_attributes
            where site = ${site} and cate_id > ${after} order by cate_id limit ${ROWS}`),
        ),
      );
      if (!rows.length) break;
      after = rows[rows.length - 1].cateId;
      const writes: { cate_id: string; attributes: CategoryAttribute[] }[] = [];
      for (const r of rows) {
        let changed = false;
        const attributes = r.attributes.map((a) => {
          const zh = a.zh ?? dict.get(a.name) ?? null;
          const values = a.values.map((v) => {
            const vz = v.zh ?? dict.get(v.name) ?? null;
            if (vz !== v.zh) changed = true;
            return { ...v, zh: vz };
          });
          if (zh !== a.zh) changed = true;
          return { ...a, zh, values };
        });
        if (changed) writes.push({ cate_id: r.cateId, attributes });
      }
      if (writes.length) {
        await inScope(db, hostAllScope, (tx) =>
          tx.execute(sql`update meli_category_attributes a set attributes = v.attributes
            from jsonb_to_recordset(${JSON.stringify(writes)}::jsonb) as v(cate_id text, attributes jsonb)
            where a.site = ${site} and a.cate_id = v.cate_id`),
        );
        changedRows += writes.length;
      }
      if (rows.length < ROWS) break;
    }
  }
  return `已为 ${changedRows} 个类目的属性补充中文名（${job.sites.map(siteName).join("、")}）`;
}

async function runChinese(deps: CategoryDeps, job: ChineseJob): Promise<void> {
  const db = deps.database.db;
  const task = (change: Parameters<typeof updateTask>[3]) => updateTask(db, HOST_TENANT_ID, job.taskId, change);
  await task({ taskStatus: TaskStatus.Running, progress: 0 });
  try {
    const t = await inScope(db, hostAllScope, (tx) => translatorFromSettings(tx, deps.secrets));
    const report = (n: number, total: number) =>
      task({ progress: Math.min(99, Math.floor((n * 100) / Math.max(1, total))), taskRemark: `已翻译 ${n}/${total} 个名称` });
    const remark =
      job.kind === "categories" ? await categoriesToChinese(deps, job, t, report) : await attributesToChinese(deps, job, t, report);
    await task({ taskStatus: TaskStatus.Succeeded, progress: 100, taskRemark: remark });
  } catch (err) {
    const retry = err instanceof TranslationError && err.retryable;
    await task({
      taskStatus: retry ? TaskStatus.Pending : TaskStatus.Failed,
      taskRemark: err instanceof Error ? err.message : String(err),
    });
    deps.log.warn({ err }, "category translation failed");
    // A busy service is worth the queue's retry; what was written stays (the job fills only what is still missing).
    if (retry) throw err;
  }
}

/** The worker of the Chinese-names job. */
export function chineseWorker(deps: CategoryDeps): JobWorker {
  return worker<ChineseJob>(CHINESE_JOB, (job) => runChinese(deps, job));
}

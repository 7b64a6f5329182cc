// TranslateProduct (spec §7 Product): titles (and descriptions) of the selected products from one language into es,
// pt or en through the translation service the settings choose. The call counts the selection, records the edit with
// no rows yet (the undo button follows it at once) and queues a job with a task record, so it answers at once whatever
// the selection's size. The job lists the selection once (product_edit_targets), walks it in batches, translates each
// batch and writes the new language into title/description with the rows' previous values backed up under the edit,
// stopping if the edit is undone meanwhile; each batch saves the job's resume point, so a retry goes on after it.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf, type Database, type Tx } from "../../db/client.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError } from "../../http/errors.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask, readTaskState, saveTaskState, updateTask } from "../../jobs/tasks.ts";
import { readTranslateSettings, createTranslator } from "../../integrations/translate/index.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { TranslationError, providerNames, type Translator } from "../../integrations/translate/types.ts";
import { TaskStatus, TaskType } from "#shared/contract/enums.ts";
import {
  productSelection,
  type ProductSelection,
  type translateProductInput,
  type TranslateProductResult,
} from "#shared/contract/product.ts";
import { editorScope } from "./bulk-tasks.ts";
import {
  dropEditTargets,
  dropExpiredBackups,
  editedStatus,
  insertEditRecord,
  listEditTargets,
  lockTenantBulkEdits,
  recordedUpdate,
  refuseWhileEditTaskRuns,
} from "./edits.ts";
import { selectionWhere } from "./filter.ts";

const TRANSLATE_JOB = "products.translate";
/** Products per batch: one provider round (titles, then descriptions) and one update each. */
const BATCH = 50;
const languageNames: Record<string, string> = { es: "西班牙语", pt: "葡萄牙语", en: "英语" };
/** Which title language a product is translated from when the call names none. */
const sourcePreference = ["zh", "zh-cn", "en", "es", "pt"];

type TranslateJob = {
  tenantId: string;
  userId: string;
  editId: string;
  taskId: string;
  from: string | null;
  to: string;
  isContainsDescription: boolean;
  /** The call's selection (productIds or filter); absent in a job queued when the call recorded its rows itself. */
  selection?: unknown;
};

/** The translator the settings describe; the thirdPlatformType asked for must be the configured one. */
async function translatorFor(tx: Tx, secrets: SecretBox, thirdPlatformType: number | null | undefined): Promise<Translator> {
  const settings = await readTranslateSettings(tx, secrets);
  const translator = createTranslator(settings);
  if (thirdPlatformType != null && providerNames[thirdPlatformType - 1] !== translator.provider) {
    throw businessError(`所选翻译服务未配置（当前配置的是 ${translator.provider}）`, "Translate.NotConfigured");
  }
  return translator;
}

async function translateProduct(
  deps: ProductTranslationDeps,
  ctx: CallContext,
  body: z.output<typeof translateProductInput>,
): Promise<TranslateProductResult> {
  const u = ctx.user!;
  if (body.from && body.from.toLowerCase() === body.to) throw businessError("源语言与目标语言相同");
  // Refuses at once, with the service's clear message, when no usable service is configured.
  await translatorFor(ctx.tx, deps.secrets, body.thirdPlatformType);
  const [counted] = rowsOf<{ n: number }>(
    await ctx.tx.execute(sql`select count(*)::int as n from products where ${selectionWhere(ctx, body)}`),
  );
  const count = Number(counted?.n ?? 0);
  if (!count) return { count: 0, editId: null, taskId: null };
  await lockTenantBulkEdits(ctx.tx, ctx.tenantId);
  await refuseWhileEditTaskRuns(ctx.tx, ctx.tenantId);
  await dropExpiredBackups(ctx.tx, ctx.tenantId, u.id);
  // Recorded now with no rows, so the undo button follows it at once; each written batch backs its rows up.
  const editId = randomUUID();
  const input = { from: body.from ?? null, to: body.to, isContainsDescription: body.isContainsDescription };
  await insertEditRecord(ctx.tx, ctx.tenantId, u.id, editId, { kind: "TranslateProduct", columns: columnsOf(body), input }, 0);
  const taskId = await createTask(ctx.tx, {
    tenantId: ctx.tenantId,
    taskType: TaskType.TranslateProducts,
    content: `翻译 ${count} 个商品${body.isContainsDescription ? "的标题和描述" : "的标题"}为${languageNames[body.to]}`,
    creatorId: u.id,
  });
  const selection: ProductSelection = { productIds: body.productIds, ids: body.ids, filter: body.filter };
  await deps.jobs.send<TranslateJob>(
    TRANSLATE_JOB,
    {
      tenantId: ctx.tenantId,
      userId: u.id,
      editId,
      taskId,
      from: body.from?.toLowerCase() ?? null,
      to: body.to,
      isContainsDescription: body.isContainsDescription,
      selection,
    },
    { tx: ctx.tx },
  );
  return { count, editId, taskId };
}

/** The columns a translation changes (and its undo restores): status too, as a translated product becomes edited. */
const columnsOf = (job: { isContainsDescription: boolean }) =>
  job.isContainsDescription ? ["title", "description", "status"] : ["title", "status"];

type Row = { id: string; title: Record<string, string>; description: Record<string, string> };

/** The language a product is translated from: the asked one, else the first title language in preference order. */
export function sourceLanguage(title: Record<string, string>, from: string | null, to: string): string | null {
  const has = (k: string) => typeof title[k] === "string" && title[k].trim() !== "";
  if (from) return has(from) ? from : null;
  const keys = Object.keys(title).filter((k) => k !== to && has(k));
  return sourcePreference.find((l) => keys.includes(l)) ?? keys[0] ?? null;
}

/** Translates one batch: texts grouped by source language, one provider call per group and field. */
async function translateBatch(t: Translator, rows: Row[], job: TranslateJob) {
  const out = new Map<string, { title?: string; description?: string }>();
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const src = sourceLanguage(r.title ?? {}, job.from, job.to);
    if (!src) continue;
    groups.set(src, [...(groups.get(src) ?? []), r]);
  }
  for (const [src, group] of groups) {
    const titles = await t.translate(
      group.map((r) => r.title[src]),
      src,
      job.to,
    );
    group.forEach((r, i) => out.set(r.id, { title: titles[i] }));
    if (job.isContainsDescription) {
      const withDescription = group.filter((r) => typeof r.description?.[src] === "string" && r.description[src].trim());
      const descriptions = await t.translate(
        withDescription.map((r) => r.description[src]),
        src,
        job.to,
        { html: true },
      );
      withDescription.forEach((r, i) => (out.get(r.id)!.description = descriptions[i]));
    }
  }
  return [...out].map(([id, v]) => ({ id, title: v.title ?? null, description: v.description ?? null }));
}

/** The job's resume point (task_infos.state): the selection listed, and how far the written batches reached. */
type TranslateState = { listed: number; done: number; translated: number };

/**
 * Lists the products to translate once, as the edit's targets numbered in id order: the call's selection, or (a job
 * queued when the call recorded its rows first) the recorded rows.
 */
async function listTargets(tx: Tx, job: TranslateJob): Promise<number> {
  if (job.selection) {
    const scope = await editorScope(tx, job.tenantId, job.userId);
    return listEditTargets(tx, job.tenantId, job.editId, selectionWhere(scope, productSelection.parse(job.selection)), null);
  }
  const [row] = rowsOf<{ n: number }>(
    await tx.execute(sql`with listed as (
        insert into product_edit_targets (tenant_id, edit_id, n, product_id)
        select tenant_id, edit_id, row_number() over (order by product_id), product_id from product_edit_backups
        where tenant_id = ${job.tenantId} and edit_id = ${job.editId}::uuid
        returning 1
      )
      select count(*)::int as n from listed`),
  );
  return Number(row?.n ?? 0);
}

/** Writes one batch's translations while the edit stands (an undo in between wins), backing the rows up if asked. */
async function writeBatch(tx: Tx, job: TranslateJob, results: { id: string; title: string | null; description: string | null }[]) {
  const update = () =>
    tx.execute(sql`with erp_written as (
        update products p set
          title = case when v.title is null then p.title else p.title || jsonb_build_object(${job.to}::text, v.title) end,
          description = case when v.description is null then p.description
            else p.description || jsonb_build_object(${job.to}::text, v.description) end,
          status = ${editedStatus(sql`p.status`)},
          last_modification_time = now(), last_modifier_id = ${job.userId}::uuid, concurrency_stamp = gen_random_uuid()::text
        from jsonb_to_recordset(${JSON.stringify(results)}::jsonb) as v(id uuid, title text, description text)
        where p.tenant_id = ${job.tenantId} and p.id = v.id
          and exists (select 1 from product_edits e where e.tenant_id = ${job.tenantId} and e.id = ${job.editId}
            and e.undone_time is null)
        returning 1
      )
      select count(*)::int as n from erp_written`);
  // A job queued when the call recorded the rows first writes over backups that exist already.
  if (!job.selection) return void (await update());
  const n = await recordedUpdate(tx, job.editId, columnsOf(job), update);
  if (n)
    await tx.execute(sql`update product_edits set row_count = row_count + ${n}::int
      where tenant_id = ${job.tenantId} and id = ${job.editId}::uuid`);
}

async function runTranslateJob(deps: ProductTranslationDeps, job: TranslateJob) {
  const db = deps.database.db;
  const { tenantId } = job;
  await updateTask(db, tenantId, job.taskId, { taskStatus: TaskStatus.Running });
  let state: TranslateState = { listed: 0, done: 0, translated: 0 };
  try {
    const translator = await inScope(db, { tenantId }, (tx) => translatorFor(tx, deps.secrets, null));
    // Listed once; a retried job goes on after the last batch it wrote.
    state =
      (await readTaskState<TranslateState>(db, tenantId, job.taskId)) ??
      (await inScope(db, { tenantId }, async (tx) => {
        const fresh = { listed: await listTargets(tx, job), done: 0, translated: 0 };
        await saveTaskState(tx, tenantId, job.taskId, fresh);
        return fresh;
      }));
    for (;;) {
      const rows = await inScope(db, { tenantId }, async (tx) =>
        rowsOf<Row & { undone: boolean }>(
          await tx.execute(sql`select p.id, p.title, p.description, e.undone_time is not null as undone
            from product_edit_targets t
            join product_edits e on e.tenant_id = t.tenant_id and e.id = t.edit_id
            join products p on p.tenant_id = t.tenant_id and p.id = t.product_id
            where t.tenant_id = ${tenantId} and t.edit_id = ${job.editId}::uuid
              and t.n > ${state.done}::int and t.n <= ${state.done + BATCH}::int
            order by t.n`),
        ),
      );
      if (rows[0]?.undone || state.done >= state.listed) break;
      const results = (await translateBatch(translator, rows, job)).filter((r) => r.title !== null || r.description !== null);
      const next = { ...state, done: state.done + BATCH, translated: state.translated + results.length };
      await inScope(db, { tenantId }, async (tx) => {
        if (results.length) await writeBatch(tx, job, results);
        await saveTaskState(tx, tenantId, job.taskId, next);
      });
      state = next;
      await updateTask(db, tenantId, job.taskId, { progress: Math.min(99, Math.floor((state.done * 100) / Math.max(1, state.listed))) });
    }
    await inScope(db, { tenantId }, (tx) => dropEditTargets(tx, tenantId, job.editId));
    const done = Math.min(state.done, state.listed);
    await updateTask(db, tenantId, job.taskId, {
      taskStatus: TaskStatus.Succeeded,
      progress: 100,
      taskRemark: `已翻译 ${state.translated} 个商品${done > state.translated ? `，${done - state.translated} 个没有可翻译的源语言标题` : ""}`,
    });
  } catch (err) {
    const retry = err instanceof TranslationError && err.retryable;
    await updateTask(db, tenantId, job.taskId, {
      taskStatus: retry ? TaskStatus.Pending : TaskStatus.Failed,
      taskRemark: `${err instanceof Error ? err.message : String(err)}（已翻译 ${state.translated} 个）`,
    });
    if (!retry) await inScope(db, { tenantId }, (tx) => dropEditTargets(tx, tenantId, job.editId));
    // A busy or unreachable service is worth the queue's retry (the job goes on after the last batch it wrote).
    if (retry) throw err;
  }
}

export type ProductTranslationDeps = { database: Database; jobs: Jobs; secrets: SecretBox };

/** TranslateProduct, and the worker that writes the translations through the configured service. */
export function createProductTranslation(deps: ProductTranslationDeps) {
  return {
    workers: [worker<TranslateJob>(TRANSLATE_JOB, (job) => runTranslateJob(deps, job))],
    translateProduct: (ctx: CallContext, body: z.output<typeof translateProductInput>) => translateProduct(deps, ctx, body),
  };
}

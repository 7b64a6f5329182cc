// TranslateProduct (spec §7 Product): titles (and descriptions) of the selected products from one language into es,
// pt or en through the translation service the settings choose. The call records the edit at once (the products'
// titles and descriptions as they are, so the undo button restores them) and queues a job with a task record; the job
// walks the edit's products in batches, translates each batch and writes the new language into title/description,
// stopping if the edit is undone meanwhile. Running the job again gives the same result, so a retry is safe.
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { rowsOf, type Database, type Tx } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { businessError } from "../../http/errors.ts";
import type { Jobs } from "../../jobs/queue.ts";
import { createTask, updateTask } from "../../jobs/tasks.ts";
import { readTranslateSettings, createTranslator } from "../../integrations/translate/index.ts";
import type { SecretBox } from "../../security/secrets.ts";
import { TranslationError, providerNames, type Translator } from "../../integrations/translate/types.ts";
import { TaskStatus, TaskType } from "../../../shared/contract/enums.ts";
import type { translateProductInput, TranslateProductResult } from "../../../shared/contract/product.ts";
import { editedStatus, recordBulkEdit } from "./edits.ts";
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
  total: number;
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
  // status too: the job moves a translated product from 未编辑 to edited, and an undo puts the old status back.
  const columns = body.isContainsDescription ? ["title", "description", "status"] : ["title", "status"];
  const { count, editId } = await recordBulkEdit(ctx, {
    kind: "TranslateProduct",
    columns,
    where: selectionWhere(ctx, body),
    // The rows are only recorded here; the job writes the translations.
    set: sql`title = ${products.title}`,
    input: { from: body.from ?? null, to: body.to, isContainsDescription: body.isContainsDescription },
  });
  if (!editId) return { count: 0, editId: null, taskId: null };
  const taskId = await createTask(ctx.tx, {
    tenantId: ctx.tenantId,
    taskType: TaskType.TranslateProducts,
    content: `翻译 ${count} 个商品${body.isContainsDescription ? "的标题和描述" : "的标题"}为${languageNames[body.to]}`,
    creatorId: u.id,
  });
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
      total: count,
    },
    { tx: ctx.tx },
  );
  return { count, editId, taskId };
}

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

async function runTranslateJob(deps: ProductTranslationDeps, job: TranslateJob) {
  const db = deps.database.db;
  await updateTask(db, job.tenantId, job.taskId, { taskStatus: TaskStatus.Running, progress: 0 });
  let after = "00000000-0000-0000-0000-000000000000";
  let done = 0;
  let translated = 0;
  try {
    const translator = await inScope(db, { tenantId: job.tenantId }, (tx) => translatorFor(tx, deps.secrets, null));
    for (;;) {
      const rows = await inScope(db, { tenantId: job.tenantId }, async (tx) =>
        rowsOf<Row & { undone: boolean }>(
          await tx.execute(sql`select p.id, p.title, p.description, e.undone_time is not null as undone
            from product_edit_backups b
            join product_edits e on e.tenant_id = b.tenant_id and e.id = b.edit_id
            join products p on p.tenant_id = b.tenant_id and p.id = b.product_id
            where b.tenant_id = ${job.tenantId} and b.edit_id = ${job.editId} and b.product_id > ${after}::uuid
            order by b.product_id limit ${BATCH}`),
        ),
      );
      if (!rows.length || rows[0].undone) break;
      after = rows[rows.length - 1].id;
      const results = (await translateBatch(translator, rows, job)).filter((r) => r.title !== null || r.description !== null);
      if (results.length) {
        // Written only while the edit stands: an undo in between wins.
        await inScope(db, { tenantId: job.tenantId }, (tx) =>
          tx.execute(sql`update products p set
              title = case when v.title is null then p.title else p.title || jsonb_build_object(${job.to}::text, v.title) end,
              description = case when v.description is null then p.description
                else p.description || jsonb_build_object(${job.to}::text, v.description) end,
              status = ${editedStatus(sql`p.status`)},
              last_modification_time = now(), last_modifier_id = ${job.userId}::uuid, concurrency_stamp = gen_random_uuid()::text
            from jsonb_to_recordset(${JSON.stringify(results)}::jsonb) as v(id uuid, title text, description text)
            where p.tenant_id = ${job.tenantId} and p.id = v.id
              and exists (select 1 from product_edits e where e.tenant_id = ${job.tenantId} and e.id = ${job.editId}
                and e.undone_time is null)`),
        );
      }
      done += rows.length;
      translated += results.length;
      await updateTask(db, job.tenantId, job.taskId, { progress: Math.min(99, Math.floor((done * 100) / Math.max(1, job.total))) });
      if (rows.length < BATCH) break;
    }
    await updateTask(db, job.tenantId, job.taskId, {
      taskStatus: TaskStatus.Succeeded,
      progress: 100,
      taskRemark: `已翻译 ${translated} 个商品${done > translated ? `，${done - translated} 个没有可翻译的源语言标题` : ""}`,
    });
  } catch (err) {
    const retry = err instanceof TranslationError && err.retryable;
    await updateTask(db, job.tenantId, job.taskId, {
      taskStatus: retry ? TaskStatus.Pending : TaskStatus.Failed,
      taskRemark: `${err instanceof Error ? err.message : String(err)}（已翻译 ${translated} 个）`,
    });
    // A busy or unreachable service is worth the queue's retry (the job starts over and gives the same result).
    if (retry) throw err;
  }
}

export type ProductTranslationDeps = { database: Database; jobs: Jobs; secrets: SecretBox };

/** TranslateProduct, and the worker that writes the translations through the configured service. */
export function createProductTranslation(deps: ProductTranslationDeps) {
  deps.jobs.handle<TranslateJob>(TRANSLATE_JOB, (job) => runTranslateJob(deps, job));
  return {
    translateProduct: (ctx: CallContext, body: z.output<typeof translateProductInput>) => translateProduct(deps, ctx, body),
  };
}

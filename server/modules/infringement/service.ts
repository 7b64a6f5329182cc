// Infringement words (spec §7 InfringementWord) and the screening of products against them (Product
// ScreeningforInfringement). A tenant's list is its rows of `infringement_words`; the host's default list is the host
// tenant's rows (HOST_TENANT_ID), kept by the host with the same calls and read by every tenant. A tenant's words are
// changed by its main account only; any user reads both lists.
import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, gt, inArray, like, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../db/client.ts";
import { HOST_TENANT_ID, infringementWords, products } from "../../db/schema.ts";
import { selectionWhere } from "../products/index.ts";
import type { ProductSelection } from "#shared/contract/product.ts";
import { containsPattern, orderBy, pageOf } from "../../db/query.ts";
import { setScope } from "../../db/scope.ts";
import type { CallContext } from "../../http/calls.ts";
import { badRequest, forbidden } from "../../http/errors.ts";
import { readTableFile, receiveUpload } from "../../http/upload.ts";
import type { PagedResult } from "#shared/contract/common.ts";
import {
  INFRINGEMENT_IMPORT_MAX_BYTES,
  INFRINGEMENT_WORDS_PER_LIST,
  INFRINGEMENT_WORDS_PER_REQUEST,
  wordText,
  type createIfringementWordInput,
  type getInfringementWordQuery,
  type InfringementWord,
} from "#shared/contract/infringement.ts";
import { createWordMatcher, normalizeWord, pickWord, type WordMatcher } from "#shared/text/aho-corasick.ts";

type WordRow = typeof infringementWords.$inferSelect;
const toItem = (r: WordRow): InfringementWord => ({ id: r.id, word: r.word, creationTime: r.creationTime.toISOString() });

/**
 * Runs `fn` on the host's rows: in a tenant's transaction the scope is switched to the host tenant for it and back
 * afterwards (a failure aborts the transaction anyway), so row-level security still shows exactly one tenant's rows.
 */
async function onHostRows<T>(ctx: CallContext, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (ctx.tenantId === HOST_TENANT_ID) return fn(ctx.tx);
  await setScope(ctx.tx, { tenantId: HOST_TENANT_ID });
  const result = await fn(ctx.tx);
  await setScope(ctx.tx, { tenantId: ctx.tenantId });
  return result;
}

/** The list the caller may change: the host's defaults for the host, the tenant's for its main account; else 403. */
function editableList(ctx: CallContext): string {
  const u = ctx.user!;
  if (u.tenantId === HOST_TENANT_ID) {
    if (!u.isHost) throw forbidden("仅平台管理员可以维护默认侵权词");
    return HOST_TENANT_ID;
  }
  if (!u.isMainAccount) throw forbidden("仅主账号可以维护侵权词");
  return u.tenantId;
}

async function listWords(tx: Tx, tenantId: string, q: z.output<typeof getInfringementWordQuery>): Promise<PagedResult<InfringementWord>> {
  const c: SQL[] = [eq(infringementWords.tenantId, tenantId)];
  if (q.Search) c.push(like(infringementWords.normalizedWord, containsPattern(normalizeWord(q.Search))));
  const order = orderBy(
    q.Sorting,
    { word: infringementWords.normalizedWord, creationTime: infringementWords.creationTime },
    desc(infringementWords.creationTime),
  );
  return pageOf(
    tx,
    infringementWords,
    and(...c),
    { skip: q.SkipCount, take: q.MaxResultCount, order: [order, asc(infringementWords.id)] },
    toItem,
  );
}

/** GetInfringementWord: the caller's tenant's words (the host's own list for the host). */
const getInfringementWord = (ctx: CallContext, q: z.output<typeof getInfringementWordQuery>) => listWords(ctx.tx, ctx.user!.tenantId, q);

/** GetDefaultfringementWord: the host's default list, which applies to every tenant. */
const getDefaultfringementWord = (ctx: CallContext, q: z.output<typeof getInfringementWordQuery>) =>
  onHostRows(ctx, (tx) => listWords(tx, HOST_TENANT_ID, q));

/**
 * Adds words to a list: each once (compared after NFC and lower-casing), a word already in the list ignored; the list
 * may not pass its size limit (400, nothing added).
 */
async function addWords(ctx: CallContext, tenantId: string, words: string[], invalid: number) {
  const unique = new Map<string, string>();
  for (const w of words) {
    const n = normalizeWord(w);
    if (!unique.has(n)) unique.set(n, w);
  }
  const now = new Date();
  const entries = [...unique];
  let inserted = 0;
  for (let i = 0; i < entries.length; i += 1000) {
    const rows = entries.slice(i, i + 1000).map(([normalizedWord, word]) => ({
      tenantId,
      id: randomUUID(),
      word,
      normalizedWord,
      creationTime: now,
      creatorId: ctx.user!.id,
    }));
    inserted += (await ctx.tx.insert(infringementWords).values(rows).onConflictDoNothing().returning({ id: infringementWords.id })).length;
  }
  if (inserted) {
    const [{ n }] = await ctx.tx.select({ n: count() }).from(infringementWords).where(eq(infringementWords.tenantId, tenantId));
    if (Number(n) > INFRINGEMENT_WORDS_PER_LIST) throw badRequest(`侵权词最多 ${INFRINGEMENT_WORDS_PER_LIST} 个，请先删除不需要的词`);
  }
  const ignoreCount = words.length - inserted + invalid;
  const parts = [`成功添加 ${inserted} 个侵权词`];
  if (ignoreCount) parts.push(`忽略 ${ignoreCount} 个（重复或无效）`);
  return { successCount: inserted, ignoreCount, message: parts.join("，") };
}

async function createIfringementWord(ctx: CallContext, body: z.output<typeof createIfringementWordInput>) {
  const tenantId = editableList(ctx);
  return addWords(ctx, tenantId, body.words, 0);
}

async function deleteInfringementWord(ctx: CallContext, ids: string[]) {
  const tenantId = editableList(ctx);
  const rows = await ctx.tx
    .delete(infringementWords)
    .where(and(eq(infringementWords.tenantId, tenantId), inArray(infringementWords.id, ids)))
    .returning({ id: infringementWords.id });
  return { count: rows.length };
}

/** The cells of one csv/tsv line: separated by commas or tabs, a cell in double quotes taken as written ("" is "). */
export function splitCsvLine(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i <= line.length) {
    let cell = "";
    while (line[i] === " ") i++;
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) break;
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        cell += line[i++];
      }
      while (i < line.length && line[i] !== "," && line[i] !== "\t") i++;
    } else {
      while (i < line.length && line[i] !== "," && line[i] !== "\t") cell += line[i++];
    }
    cells.push(cell);
    i++;
  }
  return cells;
}

/**
 * The words of an uploaded file: every non-empty cell of an xlsx's first sheet (each line of a cell with line breaks),
 * or every non-empty cell of every line of a csv/txt. A value that is no valid word (too long, control characters) is
 * counted as invalid.
 */
async function readWordFile(buf: Buffer): Promise<{ words: string[]; invalid: number }> {
  const words: string[] = [];
  let invalid = 0;
  const take = (value: string) => {
    if (!value.trim()) return;
    const r = wordText.safeParse(value);
    if (!r.success) invalid++;
    else words.push(r.data);
    if (words.length + invalid > INFRINGEMENT_WORDS_PER_REQUEST) {
      throw badRequest(`一次最多导入 ${INFRINGEMENT_WORDS_PER_REQUEST} 个侵权词`);
    }
  };
  await readTableFile(buf, {
    cell: (text) => text.split(/\r\n|\r|\n/).forEach(take),
    text: (text) => text.split(/\r\n|\r|\n/).forEach((line) => splitCsvLine(line).forEach(take)),
  });
  return { words, invalid };
}

async function importInfringementWord(ctx: CallContext) {
  const tenantId = editableList(ctx);
  const buf = await receiveUpload(ctx, INFRINGEMENT_IMPORT_MAX_BYTES);
  const { words, invalid } = await readWordFile(buf);
  if (!words.length) throw badRequest("文件中没有有效的侵权词（每行或每个单元格一个词）");
  return addWords(ctx, tenantId, words, invalid);
}

// ---------------------------------------------------------------------------------------------------------------
// Screening products.

/** Every word that applies to a tenant: the host's defaults and the tenant's own list. */
async function readScreeningWords(ctx: CallContext, tenantId: string): Promise<string[]> {
  const pick = (tx: Tx, t: string) =>
    tx.select({ word: infringementWords.word }).from(infringementWords).where(eq(infringementWords.tenantId, t));
  const defaults = await onHostRows(ctx, (tx) => pick(tx, HOST_TENANT_ID));
  const own = tenantId === HOST_TENANT_ID ? [] : await pick(ctx.tx, tenantId);
  return [...defaults, ...own].map((r) => r.word);
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The visible text of an HTML description: tags, scripts and styles dropped, common entities decoded. */
export function htmlText(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const cp = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : " ";
      }
      return entities[e.toLowerCase()] ?? m;
    });
}

const textsOf = (v: unknown): string[] =>
  v && typeof v === "object" && !Array.isArray(v)
    ? Object.values(v as Record<string, unknown>).filter((x): x is string => typeof x === "string")
    : [];

/** The word a product is flagged with: the longest found in any title or description, or null. */
export function productWord(m: WordMatcher, p: { title: unknown; titleText: string; description: unknown }): string | null {
  const found = new Set<string>();
  for (const t of [p.titleText, ...textsOf(p.title)]) for (const w of m.findAll(t)) found.add(w);
  for (const d of textsOf(p.description)) for (const w of m.findAll(htmlText(d))) found.add(w);
  return pickWord([...found]);
}

const SCREEN_BATCH = 1000;

/**
 * Screens the selected products (ids or the list's filter; live, visible to the caller) against the host's default
 * words and the tenant's words: one matcher built for the request, products read a batch at a time in id order
 * (keyset), one update per batch setting each product's word or clearing it, touching only rows whose word changes.
 */
async function screenProducts(ctx: CallContext, selection: ProductSelection) {
  const u = ctx.user!;
  const matcher = createWordMatcher(await readScreeningWords(ctx, u.tenantId));
  const where = selectionWhere(ctx, selection);
  let checked = 0;
  let flagged = 0;
  let after: string | null = null;
  for (;;) {
    const rows: { id: string; title: unknown; titleText: string; description: unknown }[] = await ctx.tx
      .select({ id: products.id, title: products.title, titleText: products.titleText, description: products.description })
      .from(products)
      .where(after ? and(where, gt(products.id, after)) : where)
      .orderBy(asc(products.id))
      .limit(SCREEN_BATCH);
    if (!rows.length) break;
    after = rows[rows.length - 1].id;
    const results = rows.map((r) => ({ id: r.id, word: productWord(matcher, r) }));
    checked += results.length;
    flagged += results.filter((r) => r.word !== null).length;
    await ctx.tx.execute(sql`update products p set infringement_word = v.word, last_modification_time = now(),
        last_modifier_id = ${u.id}, concurrency_stamp = gen_random_uuid()::text
      from jsonb_to_recordset(${JSON.stringify(results)}::jsonb) as v(id uuid, word text)
      where p.tenant_id = ${u.tenantId} and p.id = v.id and p.infringement_word is distinct from v.word`);
    if (rows.length < SCREEN_BATCH) break;
  }
  return { count: checked, flagged };
}

export function createInfringementService() {
  return {
    getInfringementWord,
    getDefaultfringementWord,
    createIfringementWord,
    deleteInfringementWord,
    importInfringementWord,
    screenProducts,
  };
}

export type InfringementService = ReturnType<typeof createInfringementService>;

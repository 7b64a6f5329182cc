// 批量打单 (issue 32): PrintLabels takes the caller's ready-to-ship orders (ids, or the list's filter), records a task and
// queues a job; the job reads the orders' lines and the source each came from (the product's collected item: its
// platform and shop), sorts the shipments for packing (source shop, then SKU), fetches their labels from Mercado Libre
// in runs of consecutive shipments of one shop group, at most LABELS_PER_CALL a call (mercadoenvios-modo-2.md
// "Imprimir etiquetas": GET /shipment_labels?shipment_ids=a,b&response_type=pdf; a global selling shipment's label one
// at a time from /marketplace/shipments/{id}/labels), and writes one PDF: the packing list (order, SKU, variant,
// quantity, source) first, then the labels in that order. The shipments' substatus becomes `printed`, as Mercado Libre
// records it. The file is kept in DATA_DIR/exports/<tenantId>/<taskId>.pdf and DownloadPrintedLabels hands it to the
// task's creator for 7 days, as the xlsx exports are kept.
/// <reference path="./fontkit.d.ts" />
import { mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { fonts as cjkFonts } from "@embedpdf/fonts-sc";
// pdf-lib and fontkit are loaded when labels are first merged, not at every start (0.8 s of CPU between them).
import type { PDFDocument, PDFFont, PDFPage } from "pdf-lib";
import type { z } from "zod";
import type { Database } from "../../db/client.ts";
import { collections, orderItems, orders, products } from "../../db/schema.ts";
import { inScope } from "../../db/scope.ts";
import { AfterCommit, type CallContext } from "../../http/calls.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { worker, type Jobs } from "../../jobs/queue.ts";
import { createTask, updateTask } from "../../jobs/tasks.ts";
import { finishedTaskOf } from "../../jobs/xlsx-export.ts";
import type { MeliClient } from "../../integrations/mercadolibre/client.ts";
import { getMarketplaceShipmentLabel, getShipmentLabels, LABELS_PER_CALL } from "../../integrations/mercadolibre/endpoints/shipments.ts";
import { MeliApiError } from "../../integrations/mercadolibre/errors.ts";
import { OrderStatus, TaskStatus, TaskType } from "#shared/contract/enums.ts";
import { platformNames } from "#shared/contract/names.ts";
import { PRINT_LABELS_MAX_ORDERS, type printLabelsInput } from "#shared/contract/order-labels.ts";
import { orderWhere } from "./list.ts";

const PRINT_LABELS_JOB = "order-print-labels";
const KEEP_MS = 7 * 24 * 3600 * 1000;
const DEFAULT_UTC_OFFSET_MINUTES = 480;

type PrintJob = { tenantId: string; taskId: string; orderIds: string[]; fileName: string; content: string };

/** One shipment's label: its orders (a pack's share one), and the packing list's lines. */
type Shipment = {
  shipmentId: string;
  groupId: string;
  isCbt: boolean;
  orderIds: string[];
  lines: PackingLine[];
};
type PackingLine = { orderNo: string; sku: string; variant: string; quantity: number; source: string; title: string };

export type PrintLabelsDeps = {
  database: Database;
  jobs: Jobs;
  meli: MeliClient;
  dataDir: string;
  /** Shipments per /shipment_labels call (tests lower it to see the batching). */
  labelsPerCall?: number;
};

const labelFile = (dataDir: string, tenantId: string, taskId: string) => join(dataDir, "exports", tenantId, `${taskId}.pdf`);

/** `面单-20240501-153012.pdf`, at UTC+8 (the console's sellers' clock). */
function labelFileName(at: Date): string {
  const local = new Date(at.getTime() + DEFAULT_UTC_OFFSET_MINUTES * 60_000).toISOString();
  return `面单-${local.slice(0, 10).replaceAll("-", "")}-${local.slice(11, 19).replaceAll(":", "")}.pdf`;
}

/** A line's source for the packing list and its order: "1688 / <shop name or id>", "" when the line has no product. */
function sourceOf(platform: number | null, shopName: string | null, shopId: string | null): string {
  const shop = shopName?.trim() || shopId?.trim() || "";
  if (platform === null) return shop;
  const name = platformNames[platform] ?? `#${platform}`;
  return shop ? `${name} / ${shop}` : name;
}

/** Packing order: by source shop (lines without a source last), then SKU, then order number. */
const lineKey = (l: PackingLine) => [l.source === "" ? "\uffff" : l.source, l.sku, l.orderNo] as const;
function compareLines(a: PackingLine, b: PackingLine): number {
  const ka = lineKey(a);
  const kb = lineKey(b);
  for (let i = 0; i < ka.length; i++) {
    const c = ka[i] < kb[i] ? -1 : ka[i] > kb[i] ? 1 : 0;
    if (c) return c;
  }
  return 0;
}

/** Runs of consecutive shipments of one shop group (and kind), each at most `size` long: one label call each. */
function labelRuns(shipments: Shipment[], size: number): Shipment[][] {
  const runs: Shipment[][] = [];
  for (const s of shipments) {
    const last = runs[runs.length - 1];
    const fits = last && !s.isCbt && !last[0].isCbt && last[0].groupId === s.groupId && last.length < size;
    if (fits) last.push(s);
    else runs.push([s]);
  }
  return runs;
}

// ---------------------------------------------------------------------------------------------------------------
// The PDF: a packing list on A4 pages, then every label's pages as Mercado Libre drew them. The packing list is
// written in Noto Sans Hans (OFL; @embedpdf/fonts-sc), embedded as a subset of the glyphs it draws (a few dozen KB), so
// Chinese shop names, variants and the headers print as themselves (docs/decisions.md, "批量打单's packing list in
// Chinese"). @foliojs-fork/fontkit subsets the font: @pdf-lib/fontkit's subset of this CFF font is unreadable.

/** The package's regular weight (its exports name only its index, in dist/: the fonts are beside it in fonts/). */
const regularFile = () =>
  join(dirname(createRequire(import.meta.url).resolve("@embedpdf/fonts-sc")), "..", "fonts", cjkFonts.find((f) => f.weight === 400)!.file);
/** The font's bytes, read once (8 MB) when the first packing list is drawn. */
let fontBytes: Promise<Buffer> | null = null;
const loadFont = () => (fontBytes ??= readFile(regularFile()));

const charSets = new WeakMap<PDFFont, Set<number>>();
/** Text the font can draw: a character it has no glyph for becomes "?". */
function writable(font: PDFFont, text: string): string {
  let set = charSets.get(font);
  if (!set) charSets.set(font, (set = new Set(font.getCharacterSet())));
  return [...text.replace(/[\r\n\t]+/g, " ")].map((c) => (set.has(c.codePointAt(0)!) ? c : "?")).join("");
}

/** Cuts the text to `width` points with "…" (as the font measures it). */
function fit(font: PDFFont, size: number, text: string, width: number): string {
  let t = writable(font, text);
  if (font.widthOfTextAtSize(t, size) <= width) return t;
  while (t.length > 1 && font.widthOfTextAtSize(`${t}…`, size) > width) t = t.slice(0, -1);
  return `${t}…`;
}

const COLUMNS = [
  { title: "#", width: 28 },
  { title: "订单号", width: 96 },
  { title: "SKU", width: 100 },
  { title: "规格", width: 120 },
  { title: "数量", width: 30 },
  { title: "货源", width: 141 },
] as const;

async function packingList(doc: PDFDocument, shipments: Shipment[], title: string) {
  // One weight (the headers too): each more is another 8 MB read and parsed.
  const bytes = await loadFont();
  doc.registerFontkit((await import("@foliojs-fork/fontkit")).default);
  const font = await doc.embedFont(bytes, { subset: true });
  const [W, H, M, ROW] = [595, 842, 40, 16];
  const rows = shipments.flatMap((s, i) => s.lines.map((l, j) => ({ n: j === 0 ? String(i + 1) : "", l })));
  const units = rows.reduce((a, r) => a + r.l.quantity, 0);
  let page: PDFPage | null = null;
  let y = 0;
  const newPage = () => {
    page = doc.addPage([W, H]);
    y = H - M;
    page.drawText(writable(font, title), { x: M, y, size: 14, font });
    y -= 18;
    page.drawText(`共 ${shipments.length} 张面单，${rows.length} 行，${units} 件`, { x: M, y, size: 9, font });
    y -= 22;
    let x = M;
    for (const c of COLUMNS) {
      page.drawText(c.title, { x, y, size: 9, font });
      x += c.width;
    }
    y -= 6;
    page.drawLine({ start: { x: M, y }, end: { x: W - M, y }, thickness: 0.5 });
    y -= ROW - 4;
  };
  newPage();
  for (const { n, l } of rows) {
    if (y < M) newPage();
    const cells = [n, l.orderNo, l.sku, l.variant, String(l.quantity), l.source];
    let x = M;
    cells.forEach((text, i) => {
      page!.drawText(fit(font, 8, text, COLUMNS[i].width - 6), { x, y, size: 8, font });
      x += COLUMNS[i].width;
    });
    y -= ROW;
  }
}

async function mergePdf(shipments: Shipment[], labels: Buffer[], title: string): Promise<Uint8Array> {
  const { PDFDocument } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreator("Mercado ERP");
  await packingList(doc, shipments, title);
  for (const file of labels) {
    const src = await PDFDocument.load(file);
    for (const p of await doc.copyPages(src, src.getPageIndices())) doc.addPage(p);
  }
  return doc.save();
}

// ---------------------------------------------------------------------------------------------------------------

/** A failure that trying again cannot fix: the task fails and the job ends. */
class FinalFailure extends Error {}

export function createPrintLabels(deps: PrintLabelsDeps) {
  const perCall = Math.min(deps.labelsPerCall ?? LABELS_PER_CALL, LABELS_PER_CALL);

  /** PrintLabels: the selection's ready-to-ship orders become a task; an id the caller does not see is a 404. */
  async function printLabels(ctx: CallContext, input: z.output<typeof printLabelsInput>) {
    const u = ctx.user!;
    const wanted = input.orderIds ? [...new Set(input.orderIds)] : null;
    const where = and(orderWhere(ctx, input.filter ?? {}), wanted ? inArray(orders.id, wanted) : undefined);
    const rows = await ctx.tx
      .select({ id: orders.id, orderNo: orders.meliOrderId, status: orders.status, shipmentId: orders.shipmentId })
      .from(orders)
      .where(wanted ? where : and(where, eq(orders.status, OrderStatus.ReadyToShip)))
      .orderBy(asc(orders.orderTime), asc(orders.id))
      .limit(PRINT_LABELS_MAX_ORDERS + 1);
    if (wanted && rows.length < wanted.length) throw notFound("订单不存在");
    if (!rows.length) throw badRequest("没有待发货的订单：只有待发货（ready_to_ship）的订单可以打单");
    if (rows.length > PRINT_LABELS_MAX_ORDERS) throw badRequest(`一次最多打印 ${PRINT_LABELS_MAX_ORDERS} 个订单的面单，请缩小筛选范围`);
    const notReady = rows.filter((r) => r.status !== OrderStatus.ReadyToShip || !r.shipmentId);
    if (notReady.length) {
      const nos = notReady.slice(0, 5).map((r) => r.orderNo);
      throw badRequest(
        `只有待发货（ready_to_ship）的订单可以打单，以下订单不是：${nos.join("、")}${notReady.length > 5 ? ` 等 ${notReady.length} 个` : ""}`,
      );
    }
    const content = `批量打单：${rows.length} 个订单`;
    const taskId = await createTask(ctx.tx, { tenantId: ctx.tenantId, taskType: TaskType.PrintLabels, content, creatorId: u.id });
    const job: PrintJob = {
      tenantId: ctx.tenantId,
      taskId,
      orderIds: rows.map((r) => r.id),
      fileName: labelFileName(new Date()),
      content,
    };
    await deps.jobs.send<PrintJob>(PRINT_LABELS_JOB, job, { tx: ctx.tx });
    return { taskId, orders: rows.length };
  }

  /** The orders' shipments with their packing lines, in packing order. */
  async function readShipments(tenantId: string, orderIds: string[]): Promise<Shipment[]> {
    const rows = await inScope(deps.database.db, { tenantId }, (tx) =>
      tx
        .select({
          orderId: orders.id,
          orderNo: orders.meliOrderId,
          shipmentId: orders.shipmentId,
          groupId: orders.accountGroupId,
          isCbt: orders.isCbt,
          itemId: orderItems.itemId,
          title: orderItems.title,
          sku: orderItems.sku,
          vkes: orderItems.vkes,
          quantity: orderItems.quantity,
          productSku: products.sku,
          platform: sql<number | null>`coalesce(${collections.platformType}, ${products.platformType})`,
          shopName: sql<string | null>`${collections.shop}->>'name'`,
          shopId: sql<string | null>`${collections.shop}->>'id'`,
        })
        .from(orders)
        .innerJoin(orderItems, and(eq(orderItems.tenantId, orders.tenantId), eq(orderItems.orderId, orders.id)))
        .leftJoin(products, and(eq(products.tenantId, orderItems.tenantId), eq(products.id, orderItems.productId)))
        .leftJoin(collections, and(eq(collections.tenantId, products.tenantId), eq(collections.id, products.sourceCollectionId)))
        .where(and(eq(orders.tenantId, tenantId), inArray(orders.id, orderIds), eq(orders.status, OrderStatus.ReadyToShip)))
        .orderBy(asc(orders.meliOrderId), asc(orderItems.line)),
    );
    const byShipment = new Map<string, Shipment>();
    for (const r of rows) {
      if (!r.shipmentId) continue;
      const s = byShipment.get(r.shipmentId) ?? { shipmentId: r.shipmentId, groupId: r.groupId, isCbt: r.isCbt, orderIds: [], lines: [] };
      byShipment.set(r.shipmentId, s);
      if (!s.orderIds.includes(r.orderId)) s.orderIds.push(r.orderId);
      s.lines.push({
        orderNo: r.orderNo,
        sku: r.sku || r.productSku || r.itemId,
        variant: Array.isArray(r.vkes) ? (r.vkes as string[]).join(", ") : "",
        quantity: r.quantity,
        source: sourceOf(r.platform, r.shopName, r.shopId),
        title: r.title,
      });
    }
    const shipments = [...byShipment.values()];
    for (const s of shipments) s.lines.sort(compareLines);
    return shipments.sort((a, b) => compareLines(a.lines[0], b.lines[0]));
  }

  /** One run's labels: one call for a run of local shipments; a refused call (one shipment no longer ready) is
   *  retried shipment by shipment so the others still print. Answers the files and the shipments left out. */
  async function fetchRun(tenantId: string, run: Shipment[]): Promise<{ files: Buffer[]; printed: Shipment[]; skipped: Shipment[] }> {
    const shop = deps.meli.shop({ tenantId, groupId: run[0].groupId });
    const one = (s: Shipment) =>
      s.isCbt ? getMarketplaceShipmentLabel(shop, s.shipmentId) : getShipmentLabels(shop, [s.shipmentId], "pdf");
    const refused = (err: unknown) => err instanceof MeliApiError && (err.status === 400 || err.status === 404 || err.status === 403);
    try {
      const file =
        run.length === 1
          ? await one(run[0])
          : await getShipmentLabels(
              shop,
              run.map((s) => s.shipmentId),
              "pdf",
            );
      return { files: [file], printed: run, skipped: [] };
    } catch (err) {
      if (!refused(err)) throw err;
    }
    const out = { files: [] as Buffer[], printed: [] as Shipment[], skipped: [] as Shipment[] };
    for (const s of run) {
      try {
        out.files.push(await one(s));
        out.printed.push(s);
      } catch (err) {
        if (!refused(err)) throw err;
        out.skipped.push(s);
      }
    }
    return out;
  }

  async function runPrint(job: PrintJob): Promise<void> {
    const db = deps.database.db;
    const { tenantId, taskId } = job;
    await updateTask(db, tenantId, taskId, { taskStatus: TaskStatus.Running, progress: 0, taskRemark: "正在读取订单" });
    const dir = join(deps.dataDir, "exports", tenantId);
    const temp = join(dir, `${taskId}.${randomUUID()}.tmp`);
    try {
      const shipments = await readShipments(tenantId, job.orderIds);
      if (!shipments.length) throw new FinalFailure("所选订单已不是待发货状态，没有可打印的面单");
      const files: Buffer[] = [];
      const printed: Shipment[] = [];
      const skipped: Shipment[] = [];
      let done = 0;
      for (const run of labelRuns(shipments, perCall)) {
        const got = await fetchRun(tenantId, run);
        files.push(...got.files);
        printed.push(...got.printed);
        skipped.push(...got.skipped);
        done += run.length;
        const progress = Math.min(95, Math.floor((done * 95) / shipments.length));
        await updateTask(db, tenantId, taskId, { progress, taskRemark: `已获取面单 ${done}/${shipments.length}` });
      }
      if (!printed.length) throw new FinalFailure("美客多拒绝了所有面单：订单已不是待发货状态");
      const pdf = await mergePdf(printed, files, `装箱单 ${job.fileName.replace(/^面单-/, "").replace(/\.pdf$/, "")}`);
      await mkdir(dir, { recursive: true });
      await writeFile(temp, pdf);
      await rename(temp, labelFile(deps.dataDir, tenantId, taskId));
      // Mercado Libre now reads these shipments `printed`; the stored orders say so until their next read.
      const printedIds = printed.flatMap((s) => s.orderIds);
      await inScope(db, { tenantId }, (tx) =>
        tx
          .update(orders)
          .set({ shipmentSubstatus: "printed", lastModificationTime: new Date() })
          .where(and(eq(orders.tenantId, tenantId), inArray(orders.id, printedIds), eq(orders.shipmentStatus, "ready_to_ship"))),
      );
      const left = skipped.length ? `，${skipped.length} 张未能打印（订单已不是待发货）` : "";
      await updateTask(db, tenantId, taskId, {
        taskStatus: TaskStatus.Succeeded,
        progress: 100,
        taskRemark: job.fileName,
        content: `${job.content}：${printed.length} 张面单${left}`,
      });
    } catch (err) {
      await unlink(temp).catch(() => {});
      const message = err instanceof FinalFailure ? err.message : `打单失败：${err instanceof Error ? err.message : String(err)}`;
      await updateTask(db, tenantId, taskId, { taskStatus: TaskStatus.Failed, taskRemark: message });
      if (err instanceof FinalFailure) return;
      throw err;
    }
  }

  /** DownloadPrintedLabels: the finished task's PDF, to its creator only. */
  async function downloadPrintedLabels(ctx: CallContext, taskId: string): Promise<AfterCommit> {
    const task = await finishedTaskOf(ctx, taskId, TaskType.PrintLabels, {
      missing: "打单任务不存在",
      running: "面单尚未生成，请稍后再下载",
      failed: "打单未成功，请重新打单",
    });
    const path = labelFile(deps.dataDir, ctx.tenantId, taskId);
    const info = await stat(path).catch(() => null);
    if (!info || Date.now() - info.mtimeMs > KEEP_MS) throw notFound("面单文件已过期，请重新打单");
    const name = task.taskRemark && /^面单-\d{8}-\d{6}\.pdf$/.test(task.taskRemark) ? task.taskRemark : "面单.pdf";
    const file = await readFile(path);
    return new AfterCommit(async (reply) => {
      await reply
        .type("application/pdf")
        .header(
          "content-disposition",
          `attachment; filename="${name.replace("面单", "labels")}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .header("cache-control", "no-store")
        .header("access-control-expose-headers", "Content-Disposition")
        .send(file);
    });
  }

  return {
    printLabels,
    downloadPrintedLabels,
    runPrint,
    workers: [worker<PrintJob>(PRINT_LABELS_JOB, runPrint, { concurrency: 2, heartbeatSeconds: 10 })],
  };
}

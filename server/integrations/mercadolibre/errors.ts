// One error type for everything Mercado Libre refuses or fails at: a Chinese message the seller can act on, a status
// of our envelope (never a 401, which would log the seller out of the console), and Mercado Libre's own words
// (error, message, cause codes) kept in `details` and `meli` for the log and the task records.
import { AppError, type ValidationErrorInfo } from "../../http/errors.ts";
import { errorBody, type ErrorBody, type MeliCause } from "./types.ts";

export type MeliErrorKind =
  /** 400 validation_error with cause[]. */
  | "validation"
  /** Another 4xx about the request. */
  | "rejected"
  /** The authorization code is used, expired or not ours. */
  | "invalid-code"
  /** The shop's authorization is gone (refresh refused, or a token refused after a refresh): authorize again. */
  | "reauthorize"
  /** Our app's client id or secret is refused. */
  | "app-credentials"
  | "forbidden"
  | "not-found"
  | "rate-limited"
  /** 5xx, network failure or time-out. */
  | "unavailable"
  /** A success answer we cannot read. */
  | "bad-response";

/**
 * Chinese readings of the cause codes: every code of docs/12-products/validaciones.md's table (and the item pages'
 * own: descriptions 398, pictures, identifiers, package dimensions, variations 161), plus the sellers' other usual
 * refusals. Mercado Libre's own message follows each reading; a code not here shows that message alone.
 */
const causeMessages: Record<string, string> = {
  // validaciones.md
  "body.invalid_field_types": "字段类型或取值不正确",
  "item.price.invalid": "价格无效（低于类目最低价或超过上限）",
  "item.category_id.invalid": "类目无效（只能发布到允许刊登的末级类目）",
  "item.attributes.missing_required": "缺少类目必填属性",
  "item.attributes.invalid_length": "属性值超过长度上限",
  "item.listing_type_id.requiresPictures": "该刊登类型必须有图片",
  "item.pictures.max": "图片数量超过该类目的上限",
  "item.pictures.picture_not_found": "图片不存在",
  "body.required_fields": "缺少必填字段（多规格需填写规格属性组合）",
  "item.attributes.non_existent.limit_exceded": "规格属性组合中类目不存在的属性超过 1 个，或有重复",
  "tem.attributes.non_existent.limit_exceded": "规格属性组合中类目不存在的属性超过 1 个，或有重复",
  "item.category_id.migrated": "类目已迁移，美客多已自动改为新类目",
  "item.attribute.values.name.invalid": "属性值名称超过长度上限",
  "item.video_id.dropped": "视频已被忽略（不再支持 YouTube 视频）",
  "normalize.item.attribute.values": "属性值已由美客多规范化",
  "create.item.attribute.business_conditional": "美客多已自动补充属性",
  "moderations.seller.not_authorized": "卖家未获该品牌授权，请先在美客多完成品牌认证",
  "shipping.me2_adoption_mandatory": "卖家必须使用 Mercado Envíos 2 物流，已自动设置",
  "item.attribute.product_identifier.invalid": "GTIN 含有无效字符",
  "item.attribute.product_identifier.invalid_format": "GTIN 格式不正确（位数或校验位错误）",
  "item.attribute.product_identifier.invalid_by_domain_catalog": "GTIN 属于同领域下的其他类目",
  "item.attribute.missing_conditional_required": "缺少类目条件必填属性（如 GTIN；无 GTIN 时需填写无 GTIN 原因）",
  "item.attribute.invalid_product_identifier": "GTIN 已被其他品牌或其他类目的刊登使用",
  "item.attribute.invalid_sanitary_registry_value": "卫生注册信息格式不正确",
  "item.pictures.invalid_size": "图片尺寸不符合要求（至少一边 500 像素）",
  "item.attribute.missing_catalog_required": "缺少目录必填属性",
  "item.title.minimum_length": "标题过于简单，请补充商品主要特征",
  "item.pictures.unavailable": "图片处理失败，请重新上传",
  "item.descriptions.length_exceeded": "描述超过字数上限",
  "item.attribute.number_invalid_format": "属性的数值格式不正确",
  "item.attribute.invalid_sale_units": "销售格式与每包数量（SALE_FORMAT / UNITS_PER_PACK）不一致",
  "item.attribute.invalid_voltage": "该电压的商品不允许在阿根廷销售",
  "item.attribute.gtin_invalid_domain": "GTIN 属于其他类目",
  "invalid.item.attribute.values": "属性值不符合类目要求",
  "item.attribute.gtin_invalid_brand": "GTIN 属于其他品牌",
  "invalid.title.gender": "标题中的性别与性别属性不一致",
  // descripcion-de-articulos.md, trabajar-con-imagenes.md, atributos.md, variaciones, publica-productos.md
  "item.description.type.invalid": "描述只能是纯文本（不能含 HTML 或表情符号）",
  "item.variations.variation_attributes.invalid": "规格中含有不能按规格区分的属性",
  "item.attribute.missing.seller.package.dimensions": "缺少包装尺寸或重量属性（长、宽、高、重量都需填写）",
  "item.attribute.invalid.format.seller.package.dimensions": "包装尺寸或重量格式不正确（只接受整数，厘米和克）",
  "item.attribute.invalid.seller.package.dimensions": "包装尺寸或重量数值不合理",
  "error.item.attribute.business_conditional.value_name": "属性值不在允许的列表中（如性别）",
  "item.price.not_modifiable": "价格当前不能修改（自动调价中）",
  "item.attributes.deleted_required": "必填属性不能删除",
  // Other usual refusals (the sandbox's, and the real API's own words for them).
  "item.attributes.invalid": "属性值不符合类目要求",
  "item.pictures.invalid": "图片无效",
  "item.title.length.invalid": "标题超过该类目允许的长度",
  "item.listing_type_id.invalid": "刊登类型无效",
  "item.currency_id.invalid": "币种与站点不符",
  "item.site_id.invalid": "卖家不能在该站点刊登",
  "item.available_quantity.invalid": "库存数量无效",
  "item.condition.invalid": "商品状况无效",
  "item.buying_mode.invalid": "购买方式无效",
  "item.variations.not_allowed": "该类目不允许多规格",
  "item.variations.max": "规格数量超过上限",
  "item.variations.id.invalid": "规格不存在",
  "item.variations.attribute_combinations.duplicated": "存在规格属性组合相同的规格",
  "item.variations.picture_ids.invalid": "规格图片必须是商品的图片",
  "item.variations.available_quantity.invalid": "规格库存数量无效",
  "item.shipping.dimensions.invalid": "包装尺寸格式不正确（长x宽x高,重量）",
  "item.status.invalid": "商品状态不允许此操作",
  field_not_updatable: "该字段已不能修改",
  "body.invalid_fields": "包含无效字段",
  "seller.site.not_enabled": "卖家未开通该站点",
  "item.site.already_published": "商品已在该站点发布",
  "item.logistic_type.invalid": "物流类型无效",
};

/** Causes the table documents by id only (validaciones.md 7714 has no code; trabajar-con-imagenes.md 508, 509). */
const causeMessagesById: Record<number, string> = {
  7714: "商品通用代码（GTIN、EAN、UPC、ISBN 等）格式不正确",
  508: "图片状态无效（只能使用可用或处理中的图片），请重新上传",
  509: "图片尺寸低于最小要求",
};

const kindStatus: Record<MeliErrorKind, number> = {
  validation: 400,
  rejected: 400,
  "invalid-code": 400,
  reauthorize: 403,
  "app-credentials": 500,
  forbidden: 403,
  "not-found": 404,
  "rate-limited": 429,
  unavailable: 500,
  "bad-response": 500,
};

const kindMessage: Record<MeliErrorKind, string> = {
  validation: "美客多校验未通过",
  rejected: "美客多拒绝了此次请求",
  "invalid-code": "授权码无效或已被使用（美客多授权码只能使用一次，10 分钟内有效），请重新授权",
  reauthorize: "店铺的美客多授权已失效，请在店铺列表中重新授权",
  "app-credentials": "美客多应用配置有误（client_id 或 client_secret 不正确），请联系平台管理员",
  forbidden: "美客多拒绝访问（无权限执行此操作）",
  "not-found": "美客多上不存在该资源",
  "rate-limited": "美客多请求过于频繁，请稍后重试",
  unavailable: "美客多服务暂时不可用，请稍后重试",
  "bad-response": "美客多返回了无法识别的数据，请稍后重试",
};

export type MeliWords = { status: number | null; error: string | null; message: string | null; cause: MeliCause[] };

export class MeliApiError extends AppError {
  readonly meli: MeliWords;
  /** Trying again later may succeed (rate limit, outage); a job should retry rather than fail. */
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | null;

  constructor(
    readonly kind: MeliErrorKind,
    meli: Partial<MeliWords> = {},
    opts: { message?: string; retryAfterSeconds?: number | null } = {},
  ) {
    const words: MeliWords = {
      status: meli.status ?? null,
      error: meli.error ?? null,
      message: meli.message ?? null,
      cause: meli.cause ?? [],
    };
    const errors = words.cause.filter((c) => c.type !== "warning");
    const validation: ValidationErrorInfo[] | null = errors.length
      ? errors.map((c) => ({ message: causeText(c), members: c.references ?? [] }))
      : null;
    super(kindStatus[kind], opts.message ?? messageFor(kind, words), `Meli.${codeOf(kind)}`, detailsOf(words), validation);
    this.meli = words;
    this.retryable = kind === "rate-limited" || kind === "unavailable" || kind === "bad-response";
    this.retryAfterSeconds = opts.retryAfterSeconds ?? null;
  }
}

const codeOf = (kind: MeliErrorKind) =>
  kind
    .split("-")
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");

/** The Chinese reading of one cause (by its code, else its id), or undefined. */
export function causeReading(c: Pick<MeliCause, "code" | "cause_id">): string | undefined {
  return (c.code ? causeMessages[c.code] : undefined) ?? (c.cause_id !== undefined ? causeMessagesById[c.cause_id] : undefined);
}

function causeText(c: MeliCause): string {
  const zh = causeReading(c);
  const own = c.message ?? c.code ?? "";
  return zh ? `${zh}：${own}` : own;
}

function messageFor(kind: MeliErrorKind, w: MeliWords): string {
  const base = kindMessage[kind];
  if (kind === "validation" || kind === "rejected" || kind === "forbidden") {
    const errors = w.cause.filter((c) => c.type !== "warning");
    if (errors.length) return `${base}：${errors.map(causeText).join("；")}`;
    if (w.message) return `${base}：${w.message}`;
  }
  return base;
}

/** Mercado Libre's own words, for the log and for support. */
function detailsOf(w: MeliWords): string | null {
  if (w.status === null && !w.error && !w.message) return null;
  const head = `美客多返回 HTTP ${w.status ?? "-"}${w.error ? ` ${w.error}` : ""}${w.message ? `: ${w.message}` : ""}`;
  const causes = w.cause.map((c) =>
    `[${c.type ?? "error"}] ${c.code ?? ""}${c.cause_id !== undefined ? `(${c.cause_id})` : ""} ${c.message ?? ""}`.trim(),
  );
  return [head, ...causes].join("\n");
}

/** Reads an error body (JSON or not, possibly empty) into Mercado Libre's words. */
export function meliWords(status: number, text: string): MeliWords {
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  let body: ErrorBody | undefined;
  const direct = errorBody.safeParse(parsed);
  if (direct.success) body = direct.data;
  else if (parsed && typeof parsed === "object") {
    // A cause list in another shape (plain strings): keep the rest.
    const rest = errorBody.safeParse({ ...(parsed as object), cause: undefined });
    if (rest.success) body = rest.data;
  }
  return {
    status,
    error: body?.error ?? null,
    message: body?.error_description ?? body?.message ?? (body ? null : text.slice(0, 300) || null),
    cause: body?.cause ?? [],
  };
}

/** Which kind an error answer is, by what was asked (`token`: the token endpoint) and what came back. */
export function kindOf(status: number, w: MeliWords, context: "api" | "exchange" | "refresh"): MeliErrorKind {
  if (context !== "api" && status >= 400 && status < 500 && status !== 429) {
    if (w.error === "invalid_client") return "app-credentials";
    if (w.error === "invalid_grant") return context === "exchange" ? "invalid-code" : "reauthorize";
  }
  if (status === 400 && (w.error === "validation_error" || w.cause.length)) return "validation";
  if (status === 401) return "reauthorize";
  if (status === 403) return "forbidden";
  if (status === 404) return "not-found";
  if (status === 429) return "rate-limited";
  if (status >= 500) return "unavailable";
  return "rejected";
}

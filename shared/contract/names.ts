// The Chinese names of the server's numbers that both the console and the server's own files (exports) show: source
// platforms and product statuses. One list each, so a screen and a spreadsheet never disagree.
import { ListingStatus, PlatformType, ProductStatus, PublishBatchStatus } from "./enums.ts";

export const platformNames: Record<number, string> = {
  [PlatformType.Alibaba1688]: "1688",
  [PlatformType.Taobao]: "淘宝",
  [PlatformType.Tmall]: "天猫",
  [PlatformType.AliExpress]: "速卖通",
  [PlatformType.Pinduoduo]: "拼多多",
  [PlatformType.Temu]: "Temu",
  [PlatformType.Shein]: "SHEIN",
  [PlatformType.Amazon]: "亚马逊",
  [PlatformType.JD]: "京东",
  [PlatformType.Generic]: "其他网站",
};

export const productStatusNames: Record<number, string> = {
  [ProductStatus.Unedited]: "未编辑",
  [ProductStatus.Ready]: "待发布",
  [ProductStatus.Published]: "已发布",
  [ProductStatus.Archived]: "已归档",
};

export const publishBatchStatusNames: Record<number, string> = {
  [PublishBatchStatus.Queued]: "排队中",
  [PublishBatchStatus.Running]: "刊登中",
  [PublishBatchStatus.Succeeded]: "全部成功",
  [PublishBatchStatus.PartlySucceeded]: "部分成功",
  [PublishBatchStatus.Failed]: "失败",
};

export const listingStatusNames: Record<number, string> = {
  [ListingStatus.Pending]: "等待刊登",
  [ListingStatus.Publishing]: "刊登中",
  [ListingStatus.Active]: "在售",
  [ListingStatus.Paused]: "已暂停",
  [ListingStatus.Closed]: "已关闭",
  [ListingStatus.UnderReview]: "审核中",
  [ListingStatus.Refused]: "被拒绝",
  [ListingStatus.Failed]: "失败",
  [ListingStatus.Skipped]: "未发送",
};

/** Mercado Libre's listing types (listing_type_id) as a seller knows them; an unknown id shows as 其他类型, never raw. */
const listingTypeNames: Record<string, string> = {
  gold_special: "经典",
  gold_pro: "高级",
  free: "免费",
};
export const listingTypeName = (id: string | null | undefined) => (id ? (listingTypeNames[id] ?? "其他类型") : "");

/** A Mercado Libre name with its Chinese name first when there is one: 颜色（Color）; the rule every screen shows. */
export const withChinese = (name: string, zh: string | null | undefined) => (zh ? `${zh}（${name}）` : name);

/**
 * Chinese names of the attributes most categories ask, by Mercado Libre's attribute id (the same on every site): used
 * while an attribute has no stored Chinese name (AckAttr fills those through a translation service).
 */
const attributeGlossary: Record<string, string> = {
  BRAND: "品牌",
  MODEL: "型号",
  LINE: "系列",
  GTIN: "商品条码",
  EMPTY_GTIN_REASON: "无条码原因",
  SELLER_SKU: "卖家SKU",
  COLOR: "颜色",
  MAIN_COLOR: "主色",
  SIZE: "尺码",
  GENDER: "性别",
  MATERIAL: "材质",
  MAIN_MATERIAL: "主要材质",
  AGE_GROUP: "年龄段",
  SIZE_GRID_ID: "尺码表",
  SIZE_GRID_ROW_ID: "尺码表行",
  PACKAGE_LENGTH: "包装长度",
  PACKAGE_WIDTH: "包装宽度",
  PACKAGE_HEIGHT: "包装高度",
  PACKAGE_WEIGHT: "包装重量",
  ITEM_CONDITION: "商品状况",
  UNITS_PER_PACK: "每包数量",
  WARRANTY_TYPE: "保修类型",
  WARRANTY_TIME: "保修期",
  VOLTAGE: "电压",
  POWER: "功率",
  CAPACITY: "容量",
  WEIGHT: "重量",
  LENGTH: "长度",
  WIDTH: "宽度",
  HEIGHT: "高度",
  STYLE: "款式",
  PATTERN_NAME: "图案",
  FABRIC_DESIGN: "面料花纹",
  SLEEVE_TYPE: "袖型",
  NECKLINE: "领型",
  IS_KIT: "是否套装",
  WITH_BLUETOOTH: "支持蓝牙",
  CONNECTIVITY: "连接方式",
};

/** An attribute's label: its stored Chinese name, else the glossary's, before its Mercado Libre name. */
export const attributeLabel = (a: { id: string; name: string; zh?: string | null }) => withChinese(a.name, a.zh || attributeGlossary[a.id]);

/** Mercado Libre's item statuses (item.status) as a seller reads them; an unknown one shows as 其他状态, never raw. */
const meliItemStatusNames: Record<string, string> = {
  active: "在售",
  paused: "已暂停",
  closed: "已关闭",
  under_review: "审核中",
  inactive: "未激活",
  not_yet_active: "未生效",
  payment_required: "待付款",
};
export const meliItemStatusName = (status: string) => meliItemStatusNames[status] ?? "其他状态";

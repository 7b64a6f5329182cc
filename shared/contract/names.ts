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
export const listingTypeNames: Record<string, string> = {
  gold_special: "经典",
  gold_pro: "高级",
  free: "免费",
};
export const listingTypeName = (id: string | null | undefined) => (id ? (listingTypeNames[id] ?? "其他类型") : "");

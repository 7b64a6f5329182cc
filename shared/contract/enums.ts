// Enumerations: numeric on the wire, named here. The spec lists only unnamed numeric sets; each is given the entity
// it fits and every value a meaning (docs/decisions.md).

/** Background task status (the spec's set 1-4 and 9). */
export const TaskStatus = { Pending: 1, Running: 2, Succeeded: 3, Failed: 4, Cancelled: 9 } as const;
export type TaskStatus = (typeof TaskStatus)[keyof typeof TaskStatus];

/** Background task type (the spec's set 1-13, 20, 30, 31). */
export const TaskType = {
  Collect: 1,
  ImportUrls: 2,
  Publish: 3,
  SyncListings: 4,
  BatchUpdateListings: 5,
  TranslateProducts: 6,
  ExportProducts: 7,
  ScreenInfringement: 8,
  SyncCategories: 9,
  SyncOrders: 10,
  PullFreight: 11,
  ClearSubAccountInfo: 12,
  CopyBetweenTenants: 13,
  ExportWalletLogs: 14,
  /** A product bulk edit (or its undo) over more than BULK_EDIT_TASK_THRESHOLD products (shared/contract/product.ts). */
  BulkEditProducts: 15,
  /** 批量打单: one PDF of the selected orders' labels with a packing list (issue 32). */
  PrintLabels: 16,
  /** 采购单 as xlsx (issue 32). */
  ExportPurchaseList: 17,
  MigrateAccount: 20,
  PurgeDeletedProducts: 30,
  Maintenance: 31,
} as const;
export type TaskType = (typeof TaskType)[keyof typeof TaskType];

/** How a sub-account is paid for (the spec's set 1-3). */
export const SubAccountType = { Free: 1, Package: 2, Trial: 3 } as const;
export type SubAccountType = (typeof SubAccountType)[keyof typeof SubAccountType];

/** How a tenant pays for its account (the spec's set 1-4). */
export const AccountPaymentType = { Trial: 1, Monthly: 2, Yearly: 3, Permanent: 4 } as const;
export type AccountPaymentType = (typeof AccountPaymentType)[keyof typeof AccountPaymentType];

/** Result of /api/account/login and check-password (ABP's LoginResultType). */
export const LoginResultType = {
  Success: 1,
  InvalidUserNameOrPassword: 2,
  NotAllowed: 3,
  LockedOut: 4,
  RequiresTwoFactor: 5,
} as const;

/** Outbox mail status. */
export const MailStatus = { Pending: 1, Sent: 2, Failed: 3, LoggedOnly: 4 } as const;

/** Marketplace sites (spec §1, §9). */
export const Site = { mx: 1, bl: 2, cl: 3, co: 4, cbt: 5 } as const;

/** Status of a shop account (the spec's account status; meanings ours). */
export const MeliAccountStatus = {
  /** Enabled and authorized. */
  Active: 1,
  /** Turned off by the seller (EnableAccount). */
  Disabled: 2,
  /** Enabled, but Mercado Libre refused its tokens: the seller must authorize again. */
  NeedsAuthorization: 3,
} as const;
export type MeliAccountStatus = (typeof MeliAccountStatus)[keyof typeof MeliAccountStatus];

/**
 * Source platform of a collected product (the spec's set 1-10): the extractor's adapters, and Generic for a page no
 * adapter knows (JSON-LD, microdata and OpenGraph fallbacks).
 */
export const PlatformType = {
  Alibaba1688: 1,
  Taobao: 2,
  Tmall: 3,
  AliExpress: 4,
  Pinduoduo: 5,
  Temu: 6,
  Shein: 7,
  Amazon: 8,
  JD: 9,
  Generic: 10,
} as const;
export type PlatformType = (typeof PlatformType)[keyof typeof PlatformType];

/** Status of a collected product in the collection box. */
export const CollectStatus = {
  /** Collected, waiting to be edited or moved to the products. */
  Collected: 1,
  /** Moved to the product list (MigratToProduct). */
  Migrated: 2,
  /** Put aside by the user. */
  Ignored: 3,
} as const;
export type CollectStatus = (typeof CollectStatus)[keyof typeof CollectStatus];

/** How a product with an infringement word is matched (the rule setting's infringementRuleType). */
export const InfringementRuleType = {
  /** The word anywhere in the title, without regard to case. */
  Contains: 1,
  /** The word as a whole word (not inside a longer latin word), without regard to case. */
  WholeWord: 2,
} as const;
export type InfringementRuleType = (typeof InfringementRuleType)[keyof typeof InfringementRuleType];

/** How a collection entered the system. */
export const CollectSource = { Plugin: 1, Crawler: 2 } as const;
export type CollectSource = (typeof CollectSource)[keyof typeof CollectSource];

/**
 * Status of a product in the product centre (the spec's product status set; meanings ours, docs/decisions.md). It
 * follows what happened to the product; the user may also set any status (BatchUpdateProductStatus, the editor's
 * status), and edits move only an unedited product on, so a chosen 已发布 or 已归档 stays.
 */
export const ProductStatus = {
  /** Moved in, created or copied; its content not changed since. */
  Unedited: 1,
  /**
   * 待发布: edited and ready to publish. An unedited product becomes Ready when saved in the editor, when an edit
   * changes its content (title, description, price, weight, size, attributes, category; one by one or in bulk) and
   * when a translation of it completes. Undoing the bulk edit puts the previous status back.
   */
  Ready: 2,
  /**
   * 已发布: has a live listing (active, paused or under review) in at least one shop. Set when a listing goes live and
   * back to 待发布 when its last live listing is closed or removed (server/modules/products/listing-status.ts).
   */
  Published: 3,
  /** Put aside by the seller. */
  Archived: 4,
} as const;
export type ProductStatus = (typeof ProductStatus)[keyof typeof ProductStatus];

/** The translation service a translation runs through (TranslateProduct's thirdPlatformType). */
export const ThirdPlatformType = { LibreTranslate: 1, DeepL: 2, Google: 3, OpenAI: 4 } as const;
export type ThirdPlatformType = (typeof ThirdPlatformType)[keyof typeof ThirdPlatformType];

/** A publish batch's progress (issue 15; the spec names the field, not its values). */
export const PublishBatchStatus = {
  /** Accepted; its jobs are queued. */
  Queued: 1,
  Running: 2,
  /** Every listing of the batch is live (skipped ones aside: see `skipped`). */
  Succeeded: 3,
  /** Ended with some listings live and some refused or failed. */
  PartlySucceeded: 4,
  /** Ended with no listing live. */
  Failed: 5,
} as const;
export type PublishBatchStatus = (typeof PublishBatchStatus)[keyof typeof PublishBatchStatus];

/**
 * An order's state (the spec's set 1-7; issue 18): Mercado Libre's order status and its shipment's status read as one
 * step of the seller's day. A cancelled or invalid order is Cancelled whatever its shipment says.
 */
export const OrderStatus = {
  /** payment_required, payment_in_process, partially_paid: not paid yet. */
  Unpaid: 1,
  /** Paid; the shipment is pending or handling (no label yet). */
  Paid: 2,
  /** Paid; the shipment is ready_to_ship: its label can be printed, ship before mustSendTime. */
  ReadyToShip: 3,
  /** The shipment is on its way (shipped). */
  Shipped: 4,
  /** Delivered to the buyer. */
  Delivered: 5,
  /** The shipment came back or was not delivered (not_delivered). */
  NotDelivered: 6,
  /** cancelled or invalid. */
  Cancelled: 7,
} as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/** A listing's state: before publishing (ours) and after (Mercado Libre's item status). */
export const ListingStatus = {
  /** Waiting for its publish job. */
  Pending: 1,
  /** Its job is calling Mercado Libre. */
  Publishing: 2,
  /** Live: Mercado Libre's `active`. */
  Active: 3,
  /** Mercado Libre's `paused` (also out of stock). */
  Paused: 4,
  /** Mercado Libre's `closed`. */
  Closed: 5,
  /** Mercado Libre's `under_review` or `inactive`. */
  UnderReview: 6,
  /** Mercado Libre refused it (the reason says why, in Chinese). */
  Refused: 7,
  /** Not published for another reason (a network failure after every retry, no token). */
  Failed: 8,
  /** Not sent: the pre-flight check found what Mercado Libre would refuse. */
  Skipped: 9,
} as const;
export type ListingStatus = (typeof ListingStatus)[keyof typeof ListingStatus];

/**
 * A wallet ledger entry's kind (issue 19; spec §3 Balance transaction `type`). Every entry carries a signed amount in
 * fen: the sign says the direction; the type says why. A host adjustment may go either way.
 */
export const WalletLogType = {
  /** A top-up (charge record) the host approved: credit. */
  TopUp: 1,
  /** A purchase paid from the balance (Payment, a sub-account package): debit. */
  Purchase: 2,
  /** A withdrawal requested: the money is held (debited) at once. */
  Withdraw: 3,
  /** A rejected withdrawal's money returned: credit. */
  WithdrawRefund: 4,
  /** The host added or took money (Hosted AddOrSubMoney), with a remark: either sign. */
  HostAdjust: 5,
  /** An agency's commission on a purchase of a tenant it recommended: credit. */
  Commission: 6,
} as const;
export type WalletLogType = (typeof WalletLogType)[keyof typeof WalletLogType];

/** A top-up (charge record) under host review: Pending, then Approved (the wallet credited once) or Rejected (a reason). */
export const ChargeStatus = { Pending: 1, Approved: 2, Rejected: 3 } as const;
export type ChargeStatus = (typeof ChargeStatus)[keyof typeof ChargeStatus];

/** How the seller transferred a top-up's money. */
export const ChargePayType = { Bank: 1, Alipay: 2 } as const;
export type ChargePayType = (typeof ChargePayType)[keyof typeof ChargePayType];

/** A withdrawal: Pending (its money held), then Approved (paid out: nothing more moves) or Rejected (the money returned). */
export const WithdrawStatus = { Pending: 1, Approved: 2, Rejected: 3 } as const;
export type WithdrawStatus = (typeof WithdrawStatus)[keyof typeof WithdrawStatus];

/** What a withdrawal takes out (spec §3 Withdrawal `source`): the balance, or agency commission (also in the balance). */
export const WithdrawSource = { Balance: 1, Commission: 2 } as const;
export type WithdrawSource = (typeof WithdrawSource)[keyof typeof WithdrawSource];

/** Hosted AddOrSubMoney `type`: add to or take from the tenant's balance. */
export const BalanceAdjustType = { Add: 1, Subtract: 2 } as const;
export type BalanceAdjustType = (typeof BalanceAdjustType)[keyof typeof BalanceAdjustType];

/**
 * A recommendation's kind (issue 19; spec §3 Recommend set `type`): Commission, the agency earns its commission on the
 * tenant's purchases; Plain, the recommendation is recorded and listed but earns nothing.
 */
export const RecommendType = { Commission: 1, Plain: 2 } as const;
export type RecommendType = (typeof RecommendType)[keyof typeof RecommendType];

/**
 * A module authorization between tenants (issue 19; spec §3 Auth grant `auditStatus`): Pending until the grantor audits
 * it, then Approved (in force until expireTime) or Rejected (a reason); the grantor may Revoke an approved one. Expired
 * is never stored: an Approved grant past its expireTime reads as Expired.
 */
export const ModuleAuthStatus = { Pending: 1, Approved: 2, Rejected: 3, Revoked: 4, Expired: 5 } as const;
export type ModuleAuthStatus = (typeof ModuleAuthStatus)[keyof typeof ModuleAuthStatus];

/**
 * What a module authorization opens of the grantor's data (authContent items): Products, its product list and details
 * (read only); ProductsCopy, copying its products into the applicant's own list (needs Products).
 */
export const ModuleAuthContent = { Products: "products", ProductsCopy: "products.copy" } as const;
export type ModuleAuthContent = (typeof ModuleAuthContent)[keyof typeof ModuleAuthContent];

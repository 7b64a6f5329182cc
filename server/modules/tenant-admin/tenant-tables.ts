// What ClearTenantInfo clears of a tenant, table by table in this order (rows that point at others go first), and
// what it keeps. It clears the tenant's working data: collection, products and their labels and edits, shops and
// their tokens, listings, orders, call logs, tasks, settings and the statistics rollups. It keeps the tenant, its
// accounts and their logins (the seller can log in and start again), its money (wallet ledger, top-ups, withdrawals,
// sub-account purchases: records the platform must keep), the authorization grants (they belong to two tenants) and
// the stored answers of idempotent calls. A test holds every tenant-owned table to one of the two lists, so a new table
// is a decision, not a table silently left behind.

export const CLEARED_TABLES: { table: string; label: string }[] = [
  { table: "product_edit_backups", label: "批量修改备份" },
  { table: "product_edit_targets", label: "批量修改队列" },
  { table: "product_edits", label: "批量修改记录" },
  { table: "products", label: "商品" },
  { table: "product_counts", label: "商品计数" },
  { table: "product_labels", label: "商品标签" },
  { table: "product_label_groups", label: "标签分组" },
  { table: "order_items", label: "订单商品" },
  { table: "orders", label: "订单" },
  { table: "listings", label: "刊登" },
  { table: "publish_batches", label: "刊登批次" },
  { table: "gtin_codes", label: "GTIN 码" },
  { table: "meli_call_logs", label: "美客多调用日志" },
  { table: "meli_notifications", label: "美客多通知" },
  { table: "meli_auth_states", label: "店铺授权请求" },
  { table: "meli_size_charts", label: "尺码表" },
  { table: "meli_freight_rules", label: "运费规则" },
  { table: "meli_accounts", label: "店铺" },
  { table: "meli_account_groups", label: "店铺分组" },
  { table: "collect_tasks", label: "采集任务" },
  { table: "aquired_urls", label: "采集链接" },
  { table: "collections", label: "采集商品" },
  { table: "collect_configs", label: "采集设置" },
  { table: "infringement_rule_settings", label: "侵权规则" },
  { table: "infringement_words", label: "侵权词" },
  { table: "category_mappings", label: "类目映射" },
  { table: "selection_snapshots", label: "选品快照" },
  { table: "selection_skus", label: "选品库" },
  { table: "task_infos", label: "任务记录" },
  { table: "tenant_product_days", label: "商品统计" },
  { table: "tenant_listing_days", label: "刊登统计" },
];

export const KEPT_TABLES = [
  "users",
  "user_sessions",
  "password_reset_codes",
  "outbox_emails",
  "idempotency_keys",
  "wallet_logs",
  "charge_records",
  "withdrawals",
  "sub_account_orders",
  "module_auths",
  "module_auth_codes",
];

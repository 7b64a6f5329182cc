// The console's route table (spec §2) with its meta. Paths are kept exactly as the spec spells them (wrokbench,
// proudcts, ...): they are what users bookmark. Pure data: the console maps `page` to a lazy screen and `icon` to an
// icon component; the permission filter (permission.ts) decides what a user sees.

/** The menu a top-level section belongs to (spec §6): the Mercado menu, the Ozone menu, or the host's admin routes
 *  (appended to the Mercado list). */
export type MenuKey = "mercado" | "ozone" | "admin";

type RouteMeta = {
  title: string;
  /** A lucide icon name (kebab-case), mapped to a component by the console. */
  icon?: string;
  orderNo?: number;
  /** Cached page: stays mounted (state and scroll kept) while the user switches tabs. */
  keepAlive?: boolean;
  /** When listed, the user must hold at least one of these roles (roleList: host, super, sub). */
  roles?: string[];
  isMainAccount?: boolean;
  isHost?: boolean;
  /** Only for tenants on the host's new-version allowlist. */
  isNewVersion?: boolean;
  /** Hidden from sub-accounts of tenants on the host's finance exclusion list. */
  isFinanceVisible?: boolean;
  /** Reachable without a token (login, 404). */
  ignoreAuth?: boolean;
  /** Only while the server runs the built-in Mercado Libre sandbox (MELI_API_URL unset). */
  isMeliSandbox?: boolean;
};

export type AppRoute = {
  path: string;
  name: string;
  meta: RouteMeta;
  /** Where the section's own path sends the user. */
  redirect?: string;
  /** The screen's key, looked up by the console (`console/src/app/pages.ts`). */
  page?: string;
  children?: AppRoute[];
};

export type SectionRoute = AppRoute & { menu: MenuKey; children: AppRoute[] };

/** What the console gives the screen of a route. */
export type PageProps = { route: AppRoute };

/** Routes outside the main layout's menus. */
export const basicRoutes = {
  root: "/",
  login: "/login",
  /** Self-registration of a new company (offered on /login while the host allows it). */
  register: "/register",
  home: "/dashboard",
  notFound: "/exception/404",
  redirect: "/redirect",
} as const;

/** The sections of spec §2, each with its screens. Section orderNo values are spec §9's. */
export const sectionRoutes: SectionRoute[] = [
  {
    path: "/dashboard",
    name: "Dashboard",
    menu: "mercado",
    redirect: "/dashboard/wrokbench",
    meta: { title: "仪表盘", icon: "layout-dashboard", orderNo: 0 },
    children: [
      { path: "/dashboard/wrokbench", name: "Workbench", page: "workbench", meta: { title: "工作台", icon: "gauge", keepAlive: true } },
      { path: "/faq/list", name: "FaqList", page: "faq", meta: { title: "常见问题", icon: "circle-help", keepAlive: true } },
    ],
  },
  {
    path: "/proudcts",
    name: "Products",
    menu: "mercado",
    redirect: "/proudcts/list",
    meta: { title: "产品中心", icon: "package", orderNo: 2 },
    children: [
      {
        path: "/proudcts/selection",
        name: "ProductSelection",
        page: "products-selection",
        meta: { title: "选品库", icon: "library", keepAlive: true, isHost: true },
      },
      { path: "/proudcts/list", name: "ProductList", page: "products-list", meta: { title: "产品列表", icon: "list", keepAlive: true } },
      {
        path: "/proudcts/publish",
        name: "ProductPublish",
        page: "products-publish",
        meta: { title: "上传产品", icon: "upload", keepAlive: true },
      },
      {
        path: "/proudcts/publish-records/v2",
        name: "ProductPublishRecordsV2",
        page: "products-publish-records",
        meta: { title: "上传详情", icon: "clipboard-list", keepAlive: true, isNewVersion: true },
      },
      {
        path: "/proudcts/publish-logs",
        name: "ProductPublishLogs",
        page: "products-publish-logs",
        meta: { title: "刊登日志", icon: "scroll-text", keepAlive: true },
      },
      {
        path: "/proudcts/sensitives",
        name: "ProductSensitives",
        page: "products-sensitives",
        meta: { title: "侵权词", icon: "shield-alert", keepAlive: true },
      },
      // Not in spec §2's table (issue 28): the GTIN pool of spec §7 MeliCode, in the product centre where publishing is.
      { path: "/proudcts/gtin", name: "ProductGtin", page: "products-gtin", meta: { title: "GTIN管理", icon: "barcode", keepAlive: true } },
      // Not in spec §2's table (issue 28): category mapping, the source category → Mercado Libre category a seller picked.
      {
        path: "/proudcts/category-mappings",
        name: "ProductCategoryMappings",
        page: "products-category-mappings",
        meta: { title: "类目映射", icon: "link", keepAlive: true },
      },
    ],
  },
  {
    path: "/test",
    name: "OzoneTest",
    menu: "ozone",
    redirect: "/test/index",
    meta: { title: "Ozone 测试", icon: "flask-conical", orderNo: 3 },
    children: [{ path: "/test/index", name: "OzoneTestIndex", page: "ozone-test", meta: { title: "Ozone 测试页", icon: "flask-conical" } }],
  },
  {
    path: "/collects",
    name: "Collects",
    menu: "mercado",
    redirect: "/collects/list",
    meta: { title: "采集中心", icon: "download", orderNo: 3 },
    children: [
      { path: "/collects/list", name: "CollectList", page: "collects-list", meta: { title: "采集列表", icon: "list", keepAlive: true } },
      {
        path: "/collects/collect",
        name: "CollectProduct",
        page: "collects-collect",
        meta: { title: "产品采集", icon: "link", keepAlive: true },
      },
      {
        path: "/collects/task",
        name: "CollectTask",
        page: "collects-task",
        meta: { title: "采集任务监控", icon: "activity", keepAlive: true },
      },
    ],
  },
  {
    path: "/shops",
    name: "Shops",
    menu: "mercado",
    redirect: "/shops/list",
    meta: { title: "店铺中心", icon: "store", orderNo: 4 },
    children: [
      { path: "/shops/list", name: "ShopList", page: "shops-list", meta: { title: "店铺列表", icon: "store" } },
      // Not in spec §2's table (issue 18): the shop centre's orders, with the same meta pattern (docs/decisions.md).
      { path: "/order/list", name: "OrderList", page: "order-list", meta: { title: "订单列表", icon: "shopping-bag", keepAlive: true } },
    ],
  },
  {
    path: "/task",
    name: "Tasks",
    menu: "mercado",
    redirect: "/task/list",
    meta: { title: "任务中心", icon: "list-checks", orderNo: 4 },
    children: [{ path: "/task/list", name: "TaskList", page: "task-list", meta: { title: "任务列表", icon: "list-checks" } }],
  },
  {
    path: "/module-auth",
    name: "ModuleAuth",
    menu: "mercado",
    redirect: "/module-auth/auth",
    meta: { title: "授权中心", icon: "key-round", orderNo: 4, isMainAccount: true },
    children: [
      {
        path: "/module-auth/auth",
        name: "ModuleAuthAuthorized",
        page: "module-auth-auth",
        meta: { title: "已授权", icon: "badge-check", keepAlive: true },
      },
      {
        path: "/module-auth/apply",
        name: "ModuleAuthApply",
        page: "module-auth-apply",
        meta: { title: "申请授权", icon: "send", keepAlive: true },
      },
    ],
  },
  {
    path: "/finance",
    name: "Finance",
    menu: "mercado",
    redirect: "/finance/wallet/list",
    meta: { title: "财务中心", icon: "wallet", orderNo: 5, isFinanceVisible: true },
    children: [
      {
        path: "/finance/wallet/list",
        name: "FinanceWallet",
        page: "finance-wallet",
        meta: { title: "钱包记录", icon: "wallet", keepAlive: true },
      },
      {
        path: "/finance/charge/list",
        name: "FinanceCharge",
        page: "finance-charge",
        meta: { title: "充值记录", icon: "receipt", keepAlive: true },
      },
      // Ours (issue 19 Agency; the spec's route table has none): the agency's recommended tenants and commissions,
      // main-account only like the calls.
      {
        path: "/finance/agency/list",
        name: "FinanceAgency",
        page: "finance-agency",
        meta: { title: "推广佣金", icon: "coins", keepAlive: true, isMainAccount: true },
      },
    ],
  },
  {
    path: "/payment",
    name: "Payment",
    menu: "mercado",
    redirect: "/payment/package",
    meta: { title: "订购中心", icon: "shopping-cart", orderNo: 6, isMainAccount: true },
    children: [
      {
        path: "/payment/package",
        name: "PaymentPackage",
        page: "payment-package",
        meta: { title: "子账号套餐", icon: "package-plus", keepAlive: true },
      },
    ],
  },
  {
    path: "/user",
    name: "User",
    menu: "mercado",
    redirect: "/user/setting",
    // Main-account only (spec §2), except the currency rates: the host maintains them there (issue 14).
    meta: { title: "个人中心", icon: "user-cog", orderNo: 7 },
    children: [
      {
        path: "/user/setting",
        name: "UserSetting",
        page: "user-setting",
        meta: { title: "子账号管理", icon: "users", isMainAccount: true },
      },
      {
        path: "/user/currency",
        name: "UserCurrency",
        page: "user-currency",
        meta: { title: "汇率设置", icon: "coins", roles: ["host", "super"] },
      },
    ],
  },
  {
    path: "/admin",
    name: "Admin",
    menu: "admin",
    redirect: "/admin/recharge",
    meta: { title: "管理员", icon: "shield", orderNo: 7, isHost: true },
    children: [
      { path: "/admin/recharge", name: "AdminRecharge", page: "admin-recharge", meta: { title: "充值审核", icon: "badge-dollar-sign" } },
      // Ours (issue 19): the sub-account packages on offer and every tenant's purchases.
      { path: "/admin/package", name: "AdminPackage", page: "admin-package", meta: { title: "子账号套餐", icon: "package-plus" } },
      { path: "/admin/user", name: "AdminUser", page: "admin-user", meta: { title: "用户列表", icon: "users" } },
      {
        path: "/admin/system_config",
        name: "AdminSystemConfig",
        page: "admin-system-config",
        meta: { title: "系统配置", icon: "settings" },
      },
      {
        path: "/admin/category_sync",
        name: "AdminCategorySync",
        page: "admin-category-sync",
        meta: { title: "类目同步", icon: "library" },
      },
      // Ours: the built-in Mercado Libre sandbox's controls (absent when the server talks to Mercado Libre itself).
      {
        path: "/admin/sandbox",
        name: "AdminSandbox",
        page: "admin-sandbox",
        meta: { title: "沙箱", icon: "flask-conical", isMeliSandbox: true },
      },
    ],
  },
];

/** Screens reachable from the header (not in a menu) but inside the layout, for every logged-in user. */
export const accountRoutes: AppRoute[] = [
  { path: "/profile", name: "Profile", page: "profile", meta: { title: "个人资料", icon: "user" } },
];

// Route page keys (shared/routes) → screens. Each screen is a lazy chunk (its module's default export), loaded when first opened; a
// route whose area has not been built yet shows the "not available yet" page.
import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import type { AppRoute, PageProps } from "#shared/routes/table.ts";
import { ForbiddenPage } from "../features/exception/forbidden-page.tsx";
import { NotAvailablePage } from "../features/placeholder/not-available-page.tsx";

type Page = LazyExoticComponent<ComponentType<PageProps>> | ComponentType<PageProps>;

/** The page key of the no-permission page the layout shows in place of a screen the user may not open. */
export const FORBIDDEN_PAGE = "forbidden";

const pages: Record<string, Page> = {
  [FORBIDDEN_PAGE]: ForbiddenPage,
  workbench: lazy(() => import("../features/dashboard/workbench-page.tsx")),
  faq: lazy(() => import("../features/dashboard/faq-page.tsx")),
  "user-setting": lazy(() => import("../features/users/sub-accounts-page.tsx")),
  "user-currency": lazy(() => import("../features/currency/currency-page.tsx")),
  profile: lazy(() => import("../features/profile/profile-page.tsx")),
  "admin-user": lazy(() => import("../features/admin/admin-user-page.tsx")),
  "admin-system-config": lazy(() => import("../features/admin/system-config-page.tsx")),
  "admin-category-sync": lazy(() => import("../features/category-sync/category-sync-page.tsx")),
  "admin-sandbox": lazy(() => import("../features/sandbox/sandbox-page.tsx")),
  "collects-list": lazy(() => import("../features/collects/collect-list-page.tsx")),
  "collects-collect": lazy(() => import("../features/collects/collect-product-page.tsx")),
  "collects-task": lazy(() => import("../features/collects/collect-task-page.tsx")),
  "products-selection": lazy(() => import("../features/selection/selection-page.tsx")),
  "products-list": lazy(() => import("../features/products/product-list-page.tsx")),
  "products-publish": lazy(() => import("../features/publish/publish-page.tsx")),
  "products-publish-records": lazy(() => import("../features/publish/publish-records-page.tsx")),
  "products-publish-logs": lazy(() => import("../features/publish-logs/publish-logs-page.tsx")),
  "products-sensitives": lazy(() => import("../features/products/sensitives-page.tsx")),
  "products-gtin": lazy(() => import("../features/gtin/gtin-page.tsx")),
  "products-category-mappings": lazy(() => import("../features/category-mappings/category-mappings-page.tsx")),
  "shops-list": lazy(() => import("../features/shops/shop-list-page.tsx")),
  "order-list": lazy(() => import("../features/orders/order-list-page.tsx")),
  "task-list": lazy(() => import("../features/tasks/task-list-page.tsx")),
  "payment-package": lazy(() => import("../features/packages/package-page.tsx")),
  "finance-wallet": lazy(() => import("../features/finance/wallet-page.tsx")),
  "finance-charge": lazy(() => import("../features/finance/charge-page.tsx")),
  "admin-recharge": lazy(() => import("../features/finance/admin-recharge-page.tsx")),
  "finance-agency": lazy(() => import("../features/agency/agency-page.tsx")),
  "admin-package": lazy(() => import("../features/packages/admin-package-page.tsx")),
  "module-auth-auth": lazy(() => import("../features/module-auth/auth-page.tsx")),
  "module-auth-apply": lazy(() => import("../features/module-auth/apply-page.tsx")),
};

export function pageFor(route: AppRoute): Page {
  return (route.page && pages[route.page]) || NotAvailablePage;
}

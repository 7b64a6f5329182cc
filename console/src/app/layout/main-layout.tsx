// The main layout: side menu (a drawer under 1000px), header, tab bar and the page host. It resolves the path against
// the routes built after login: a section path goes to its first screen, a path of a screen the user may not open
// shows the no-permission page inside the layout, an unknown path goes to the 404 page (strict: exact, case-sensitive
// paths).
import { useEffect, useState } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { findScreen, findSection } from "#shared/routes/permission.ts";
import { accountRoutes, basicRoutes, sectionRoutes, type AppRoute } from "#shared/routes/table.ts";
import { Sheet, SheetContent, SheetTitle } from "#shared/ui/sheet.tsx";
import { FORBIDDEN_TITLE } from "../../features/exception/forbidden-page.tsx";
import { useIsMobile } from "../../lib/use-is-mobile.ts";
import { useLiveProgress } from "../../lib/live-progress.ts";
import { usePermissionStore } from "../../stores/permission.ts";
import { useTabsStore } from "../../stores/tabs.ts";
import { Header } from "./header.tsx";
import { FORBIDDEN_PAGE } from "../pages.tsx";
import { PageHost } from "./page-host.tsx";
import { Sidebar } from "./sidebar.tsx";
import { TabBar } from "./tab-bar.tsx";

function useScreens() {
  const sections = usePermissionStore((s) => s.sections);
  const byPath = new Map<string, AppRoute>();
  for (const s of sections) for (const c of s.children) byPath.set(c.path, c);
  for (const r of accountRoutes) byPath.set(r.path, r);
  return { sections, byPath };
}

export default function MainLayout() {
  const { pathname } = useLocation();
  const { sections, byPath } = useScreens();
  const tabs = useTabsStore((s) => s.tabs);
  const openTab = useTabsStore((s) => s.open);
  const isMobile = useIsMobile();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // One live progress stream for the session, shared by every screen.
  useLiveProgress();

  const allowed = findScreen(sections, pathname) ?? accountRoutes.find((r) => r.path === pathname);
  const section = allowed ? undefined : findSection(sections, pathname);
  const forbidden = !allowed && !section && (findScreen(sectionRoutes, pathname) ?? findSection(sectionRoutes, pathname));
  // The no-permission page takes the place of the screen; it opens no tab.
  const screen: AppRoute | undefined = forbidden
    ? { path: pathname, name: "Forbidden", page: FORBIDDEN_PAGE, meta: { title: FORBIDDEN_TITLE } }
    : allowed;

  useEffect(() => {
    if (allowed) openTab({ path: allowed.path, title: allowed.meta.title });
  }, [allowed, openTab]);
  const title = screen?.meta.title;
  useEffect(() => {
    if (title) document.title = `${title} - 美客多 ERP`;
  }, [title]);

  if (section?.redirect) return <Navigate to={section.redirect} replace />;
  if (!screen) return <Navigate to={basicRoutes.notFound} replace />;

  const cached = tabs.map((t) => byPath.get(t.path)).filter((r): r is AppRoute => !!r?.meta.keepAlive);
  // The tab is opened by the effect above; render the page now rather than one frame later.
  if (screen.meta.keepAlive && !cached.includes(screen)) cached.push(screen);

  return (
    <div className="flex h-screen overflow-hidden" data-layout={isMobile ? "mobile" : "desktop"}>
      {isMobile ? (
        <Sheet open={drawerOpen} onOpenChange={setDrawerOpen}>
          <SheetContent side="left" className="w-64 p-0">
            <SheetTitle className="sr-only">菜单</SheetTitle>
            <Sidebar onNavigate={() => setDrawerOpen(false)} />
          </SheetContent>
        </Sheet>
      ) : (
        <aside className="w-56 shrink-0 border-r">
          <Sidebar />
        </aside>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <Header title={screen.meta.title} onOpenMenu={isMobile ? () => setDrawerOpen(true) : undefined} />
        <TabBar />
        <PageHost current={screen} cached={cached} />
      </div>
    </div>
  );
}

// Renders the current page inside the layout. Cached (keepAlive) pages that have been opened stay mounted, hidden by
// React's <Activity>, so their state (typed filters, selections) survives switching tabs; each page scrolls in its own
// container, and a hidden Activity keeps its DOM, so the position is still there when the tab comes back (the browser
// test checks it). Other pages are mounted afresh and start at the top.
import { Activity, Suspense, type ReactNode } from "react";
import type { AppRoute } from "#shared/routes/table.ts";
import { Loading } from "#shared/ui/spinner.tsx";
import { pageFor } from "../pages.tsx";

export function PageHost({ current, cached }: { current: AppRoute; cached: AppRoute[] }) {
  return (
    <div className="relative min-h-0 flex-1">
      {cached.map((route) => (
        <Activity key={route.path} mode={route.path === current.path ? "visible" : "hidden"}>
          <PageFrame route={route} />
        </Activity>
      ))}
      {current.meta.keepAlive ? null : <PageFrame key={current.path} route={current} />}
    </div>
  );
}

function PageFrame({ route }: { route: AppRoute }) {
  const Page = pageFor(route);
  return (
    <ScrollFrame path={route.path}>
      <Suspense fallback={<Loading className="h-64" />}>
        <Page route={route} />
      </Suspense>
    </ScrollFrame>
  );
}

function ScrollFrame({ path, children }: { path: string; children: ReactNode }) {
  return (
    <div className="absolute inset-0 overflow-auto p-4" data-page={path}>
      {children}
    </div>
  );
}

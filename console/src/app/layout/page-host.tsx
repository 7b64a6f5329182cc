// Renders the current page inside the layout. Cached (keepAlive) pages that have been opened stay mounted, hidden by
// React's <Activity>, so their state (typed filters, selections) survives switching tabs; each page scrolls in its own
// container, whose position is remembered and put back when the tab comes back. Other pages start at the top.
import { Activity, Suspense, useLayoutEffect, useRef, type ReactNode } from "react";
import type { AppRoute } from "../../../../shared/routes/table.ts";
import { Loading } from "../../../../shared/ui/spinner.tsx";
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
  const ref = useRef<HTMLDivElement>(null);
  const saved = useRef(0);
  // Runs when the frame is shown (first mount, and each time a hidden Activity becomes visible again).
  useLayoutEffect(() => {
    if (ref.current) ref.current.scrollTop = saved.current;
  }, []);
  return (
    <div
      ref={ref}
      className="absolute inset-0 overflow-auto p-4"
      data-page={path}
      onScroll={(e) => {
        saved.current = e.currentTarget.scrollTop;
      }}
    >
      {children}
    </div>
  );
}

// The tab bar: pages the user opened this session. Cached (keepAlive) pages stay mounted behind their tab. When the
// tabs overflow the bar scrolls sideways (a thin scrollbar, the mouse wheel too) and keeps the current tab in view.
import { X } from "lucide-react";
import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { cn } from "#shared/ui/cn.ts";
import { PINNED_TAB, useTabsStore } from "../../stores/tabs.ts";

export function TabBar() {
  const tabs = useTabsStore((s) => s.tabs);
  const close = useTabsStore((s) => s.close);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const barRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const bar = barRef.current;
    const active = bar?.querySelector<HTMLElement>("[role=tab][aria-selected=true]");
    if (!bar || !active) return;
    // Measured on screen, not by offsetLeft (which counts from the nearest positioned ancestor, not the bar).
    const tab = active.getBoundingClientRect();
    const box = bar.getBoundingClientRect();
    if (tab.left < box.left) bar.scrollLeft -= box.left - tab.left;
    else if (tab.right > box.right) bar.scrollLeft += tab.right - box.right;
  }, [pathname, tabs.length]);

  useEffect(() => {
    const bar = barRef.current;
    if (!bar) return;
    // A vertical wheel has nothing to scroll here: turn it sideways (passive: false, so the page does not scroll too).
    const onWheel = (e: WheelEvent) => {
      if (bar.scrollWidth <= bar.clientWidth || Math.abs(e.deltaX) > Math.abs(e.deltaY)) return;
      e.preventDefault();
      bar.scrollLeft += e.deltaY;
    };
    bar.addEventListener("wheel", onWheel, { passive: false });
    return () => bar.removeEventListener("wheel", onWheel);
  }, []);

  function onClose(path: string) {
    const next = close(path);
    if (next && path === pathname) navigate(next);
  }

  return (
    <div
      ref={barRef}
      className="relative flex h-10 shrink-0 items-end gap-1 overflow-x-auto overflow-y-hidden border-b bg-background px-2 [scrollbar-width:thin]"
      role="tablist"
      aria-label="已打开的页面"
      data-testid="tab-bar"
    >
      {tabs.map((t) => {
        const active = t.path === pathname;
        return (
          <div
            key={t.path}
            role="tab"
            aria-selected={active}
            data-tab-path={t.path}
            className={cn(
              "group flex h-8 shrink-0 cursor-pointer items-center gap-1 rounded-t-md border border-b-0 px-3 text-sm",
              active ? "bg-muted font-medium text-primary" : "bg-background text-muted-foreground hover:text-foreground",
            )}
            onClick={() => navigate(t.path)}
          >
            {t.title}
            {t.path !== PINNED_TAB.path ? (
              <button
                className="rounded p-0.5 opacity-60 hover:bg-background hover:opacity-100"
                aria-label={`关闭 ${t.title}`}
                onClick={(e) => {
                  e.stopPropagation();
                  onClose(t.path);
                }}
              >
                <X className="size-3" />
              </button>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

// The side menu: the Mercado/Ozone switch and the sections the user may see (spec §6), derived from the permission
// store. Sections fold; the one holding the current page is open.
import { ChevronDown } from "lucide-react";
import { useState } from "react";
import { NavLink, useLocation } from "react-router-dom";
import type { SectionRoute } from "#shared/routes/table.ts";
import { cn } from "#shared/ui/cn.ts";
import { RouteIcon } from "../../components/route-icon.tsx";
import { useAppStore, type Platform } from "../../stores/app.ts";
import { usePermissionStore } from "../../stores/permission.ts";

const platforms: { key: Platform; label: string }[] = [
  { key: "mercado", label: "Mercado" },
  { key: "ozone", label: "Ozone" },
];

export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const platform = useAppStore((s) => s.platform);
  const setPlatform = useAppStore((s) => s.setPlatform);
  const menus = usePermissionStore((s) => s.menus);
  const sections = menus[platform];

  return (
    <nav className="flex h-full flex-col bg-sidebar text-sidebar-foreground" aria-label="主菜单" data-testid="side-menu">
      <div className="flex h-14 shrink-0 items-center gap-2 px-4 text-base font-semibold">
        <span className="grid size-7 place-items-center rounded-md bg-primary text-sm text-primary-foreground">M</span>
        美客多 ERP
      </div>
      <div className="mx-3 mb-2 grid grid-cols-2 rounded-md bg-sidebar-accent p-1 text-sm" role="tablist" aria-label="平台">
        {platforms.map((p) => (
          <button
            key={p.key}
            role="tab"
            aria-selected={platform === p.key}
            data-platform={p.key}
            className={cn(
              "rounded px-2 py-1 transition-colors",
              platform === p.key ? "bg-background font-medium shadow-sm" : "opacity-70 hover:opacity-100",
            )}
            onClick={() => setPlatform(p.key)}
          >
            {p.label}
          </button>
        ))}
      </div>
      <div className="flex-1 overflow-y-auto px-2 pb-4" data-menu={platform}>
        {sections.length === 0 ? <p className="px-3 py-6 text-center text-sm opacity-60">暂无可用菜单</p> : null}
        {sections.map((s) => (
          <MenuSection key={s.path} section={s} onNavigate={onNavigate} />
        ))}
      </div>
    </nav>
  );
}

function MenuSection({ section, onNavigate }: { section: SectionRoute; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const holdsCurrent = section.children.some((c) => c.path === pathname);
  const [open, setOpen] = useState(true);
  const expanded = open || holdsCurrent;
  return (
    <div className="mb-1" data-menu-section={section.path}>
      <button
        className="flex w-full items-center gap-2 rounded-md px-3 py-2 text-sm font-medium hover:bg-sidebar-accent"
        aria-expanded={expanded}
        onClick={() => setOpen(!expanded)}
      >
        <RouteIcon name={section.meta.icon} className="size-4" />
        <span className="flex-1 text-left">{section.meta.title}</span>
        <ChevronDown className={cn("size-4 transition-transform", expanded ? "" : "-rotate-90")} aria-hidden />
      </button>
      {expanded ? (
        <ul className="mt-0.5 space-y-0.5">
          {section.children.map((c) => (
            <li key={c.path}>
              <NavLink
                to={c.path}
                onClick={onNavigate}
                data-menu-path={c.path}
                className={({ isActive }) =>
                  cn(
                    "flex items-center gap-2 rounded-md py-1.5 pr-3 pl-9 text-sm transition-colors",
                    isActive ? "bg-primary text-primary-foreground" : "hover:bg-sidebar-accent",
                  )
                }
              >
                {c.meta.title}
              </NavLink>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

// The header: the menu button on mobile, the current page's title, and the user menu (profile, change password,
// logout).
import { ChevronDown, KeyRound, LogOut, Menu, User } from "lucide-react";
import { useNavigate } from "react-router-dom";
import { Button } from "#shared/ui/button.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "#shared/ui/dropdown-menu.tsx";
import { logout } from "../../lib/session.ts";
import { useUserStore } from "../../stores/user.ts";

export function Header({ title, onOpenMenu }: { title: string; onOpenMenu?: () => void }) {
  const info = useUserStore((s) => s.userInfo);
  const tenantName = useUserStore((s) => s.tenantName);
  const navigate = useNavigate();
  const shownName = info?.name || info?.userName || "";

  async function onLogout() {
    if (await confirm({ title: "确认退出登录吗？", tone: "warning", confirmText: "退出登录" })) await logout();
  }

  return (
    <header className="flex h-14 shrink-0 items-center gap-3 border-b bg-background px-4">
      {onOpenMenu ? (
        <Button variant="ghost" size="icon" onClick={onOpenMenu} aria-label="打开菜单" data-testid="open-menu">
          <Menu className="size-5" />
        </Button>
      ) : null}
      <h1 className="flex-1 truncate text-base font-medium">{title}</h1>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" className="gap-2" data-testid="user-menu">
            <span className="grid size-7 place-items-center rounded-full bg-primary/10 text-sm text-primary">
              {shownName.slice(0, 1).toUpperCase()}
            </span>
            <span className="hidden max-w-40 truncate text-sm sm:inline">{shownName}</span>
            <ChevronDown className="size-4 opacity-60" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-52">
          <DropdownMenuLabel className="font-normal">
            <div className="truncate text-sm font-medium">{info?.userName}</div>
            <div className="truncate text-xs text-muted-foreground">{info?.isHost ? "平台管理员" : `公司：${tenantName ?? ""}`}</div>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => navigate("/profile")} data-testid="menu-profile">
            <User className="size-4" /> 个人资料
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => navigate("/profile?tab=password")} data-testid="menu-change-password">
            <KeyRound className="size-4" /> 修改密码
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => void onLogout()} data-testid="menu-logout">
            <LogOut className="size-4" /> 退出登录
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </header>
  );
}

// A route the user may not open (a sub-account on a main-account centre, a tenant on a host screen), shown inside the
// layout so the menus stay at hand; the path names a real screen, so "not found" would be wrong.
import { ShieldX } from "lucide-react";
import { Link } from "react-router-dom";
import { basicRoutes } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";

export const FORBIDDEN_TITLE = "无权限访问";

export function ForbiddenPage() {
  return (
    <div className="flex h-full min-h-80 flex-col items-center justify-center gap-3 text-center" data-testid="forbidden">
      <ShieldX className="text-muted-foreground size-14" aria-hidden />
      <h2 className="text-2xl font-semibold">403</h2>
      <p className="text-muted-foreground text-sm">无权限访问该页面：当前账号没有此页面的权限，如需使用请联系主账号或管理员。</p>
      <Button asChild>
        <Link to={basicRoutes.home}>返回首页</Link>
      </Button>
    </div>
  );
}

// /exception/404 (spec §2).
import { FileQuestion } from "lucide-react";
import { Link } from "react-router-dom";
import { basicRoutes } from "#shared/routes/table.ts";
import { Button } from "#shared/ui/button.tsx";

export function NotFoundPage() {
  return (
    <div className="flex h-screen flex-col items-center justify-center gap-4 bg-background text-center" data-testid="not-found">
      <FileQuestion className="size-16 text-muted-foreground" aria-hidden />
      <h1 className="text-4xl font-bold">404</h1>
      <p className="text-muted-foreground">抱歉，您访问的页面不存在</p>
      <Button asChild>
        <Link to={basicRoutes.home}>返回首页</Link>
      </Button>
    </div>
  );
}

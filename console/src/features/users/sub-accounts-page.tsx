// /user/setting (main account only): sub-account management. Tab 子账号列表 lists, creates, edits, enables/disables,
// resets passwords and clears data of sub-accounts; tab 子账号统计 shows per-user figures over a date range.
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#shared/ui/tabs.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import type { TrackedClearTask } from "./clear-tasks.tsx";
import { readTab, type SubAccountsTab } from "./search-params.ts";
import { SubUserList } from "./sub-user-list.tsx";
import { SubUserStats } from "./sub-user-stats.tsx";

export default function SubAccountsPage({ route }: PageProps) {
  const [params, setParams] = useSearchParams();
  const tab = readTab(params);
  // Kept here so the clear-data tasks stay in view while switching tabs.
  const [clearTasks, setClearTasks] = useState<TrackedClearTask[]>([]);

  function onTabChange(value: string) {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if ((value as SubAccountsTab) === "stats") next.set("tab", "stats");
        else next.delete("tab");
        return next;
      },
      { replace: true },
    );
  }

  return (
    <Card data-testid="sub-accounts-page">
      <CardHeader className="border-b pb-4">
        <CardTitle>{route.meta.title}</CardTitle>
        <CardDescription>创建和管理本公司的子账号（业务员），设置其店铺、采集和产品数量上限，并查看各账号的业绩统计。</CardDescription>
      </CardHeader>
      <CardContent className="pt-4">
        <Tabs value={tab} onValueChange={onTabChange} className="gap-4">
          <TabsList>
            <TabsTrigger value="list" data-testid="sub-accounts-tab-list">
              子账号列表
            </TabsTrigger>
            <TabsTrigger value="stats" data-testid="sub-accounts-tab-stats">
              子账号统计
            </TabsTrigger>
          </TabsList>
          <TabsContent value="list">
            <SubUserList
              clearTasks={clearTasks}
              onClearStarted={(t) => setClearTasks((list) => [t, ...list])}
              onClearDismissed={(id) => setClearTasks((list) => list.filter((t) => t.taskId !== id))}
            />
          </TabsContent>
          <TabsContent value="stats">
            <SubUserStats />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}

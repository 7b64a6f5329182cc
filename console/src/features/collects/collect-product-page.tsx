// /collects/collect (spec §2, cached): product collection. Pasted product URLs and imported files of URLs both go to
// the URL queue, with the source platform (or detection from the URL) and the discounted-price choice, and show in
// the one queue below with their progress (statistics, re-crawl and delete); the collect settings and infringement
// rule (main accounts edit them); how to install the extension's collect button.
import { ListChecks, Settings } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#shared/ui/tabs.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { useCollectConfig } from "./api/collect-settings.ts";
import { CollectImportForm } from "./collect-import-form.tsx";
import { AUTO_PLATFORM, CollectOptions, type CollectOptionsValue } from "./collect-options.tsx";
import { CollectSettingsDialog } from "./collect-settings-dialog.tsx";
import { CollectUrlsForm } from "./collect-urls-form.tsx";
import { ExtensionHint } from "./extension-hint.tsx";
import { UrlQueue } from "./url-queue.tsx";

export default function CollectProductPage({ route }: PageProps) {
  const config = useCollectConfig();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [platform, setPlatform] = useState(AUTO_PLATFORM);
  // The discounted-price choice follows the tenant's setting until the user changes it here.
  const [discount, setDiscount] = useState<boolean | null>(null);
  const options: CollectOptionsValue = { platform, isDiscountPrice: discount ?? config.data?.isDiscountPrice ?? true };
  const [tab, setTab] = useState("urls");

  return (
    <div className="flex flex-col gap-4" data-testid="collects-collect-page">
      <div className="grid gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(320px,1fr)]">
        <Card>
          <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b pb-4">
            <div className="flex min-w-64 flex-1 basis-0 flex-col gap-1.5">
              <CardTitle>{route.meta.title}</CardTitle>
              <CardDescription>粘贴商品链接或导入链接文件，服务器会自动抓取商品信息并保存到采集列表。</CardDescription>
            </div>
            <div className="flex gap-2">
              <Button variant="outline" onClick={() => setSettingsOpen(true)} data-testid="collect-settings-open">
                <Settings />
                采集设置
              </Button>
              <Button variant="outline" asChild>
                <Link to="/collects/task" data-testid="collect-go-tasks">
                  <ListChecks />
                  采集任务
                </Link>
              </Button>
            </div>
          </CardHeader>
          <CardContent className="flex flex-col gap-4 pt-4">
            <CollectOptions
              value={options}
              onChange={(v) => {
                setPlatform(v.platform);
                if (v.isDiscountPrice !== options.isDiscountPrice) setDiscount(v.isDiscountPrice);
              }}
            />
            <Tabs value={tab} onValueChange={setTab}>
              <TabsList>
                <TabsTrigger value="urls" data-testid="collect-tab-urls">
                  粘贴链接
                </TabsTrigger>
                <TabsTrigger value="file" data-testid="collect-tab-file">
                  导入文件
                </TabsTrigger>
              </TabsList>
              {/* Both stay mounted so a typed list or a chosen file survives switching. */}
              <TabsContent value="urls" forceMount className="data-[state=inactive]:hidden">
                <CollectUrlsForm options={options} />
              </TabsContent>
              <TabsContent value="file" forceMount className="data-[state=inactive]:hidden">
                <CollectImportForm options={options} />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
        <ExtensionHint />
      </div>

      <Card>
        <CardHeader>
          <CardTitle>采集队列</CardTitle>
          <CardDescription>粘贴和导入的链接都在这里排队，由服务器依次采集；失败的链接可以重新采集。</CardDescription>
        </CardHeader>
        <CardContent>
          <UrlQueue path={route.path} />
        </CardContent>
      </Card>

      <CollectSettingsDialog open={settingsOpen} onOpenChange={setSettingsOpen} />
    </div>
  );
}

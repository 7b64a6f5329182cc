// How to get the browser extension's collect button: the extension is built into .output/chrome-mv3 and loaded
// unpacked in Chrome/Edge; on a product page of a supported platform it shows "采集到 ERP" at the bottom right.
import { Puzzle } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@shared/ui/card.tsx";
import { platformOptions } from "../../lib/labels.ts";
import { PlatformType } from "@shared/contract/enums.ts";

const steps = [
  <>
    构建插件：在项目目录运行 <code className="bg-muted rounded px-1 py-0.5 text-xs">npm run build:extension</code>，产物位于{" "}
    <code className="bg-muted rounded px-1 py-0.5 text-xs">.output/chrome-mv3</code>
  </>,
  <>
    打开 Chrome 或 Edge 的扩展程序页（<code className="bg-muted rounded px-1 py-0.5 text-xs">chrome://extensions</code>
    ），开启右上角“开发者模式”
  </>,
  <>点击“加载已解压的扩展程序”，选择 .output/chrome-mv3 目录</>,
  <>点击浏览器工具栏中的插件图标，填写服务器地址、公司名称、用户名和密码登录</>,
  <>打开商品详情页，点击页面右下角的“采集到 ERP”按钮即可一键采集；已采集过的商品会显示“已采集”</>,
];

export function ExtensionHint() {
  const platforms = platformOptions.filter((p) => p.value !== PlatformType.Generic).map((p) => p.label);
  return (
    <Card className="h-full" data-testid="collect-extension-hint">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Puzzle aria-hidden="true" className="text-primary size-4" />
          浏览器插件一键采集
        </CardTitle>
        <CardDescription>在商品页面直接采集，速度快、不受验证码拦截。支持 {platforms.join("、")}。</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="text-muted-foreground flex list-decimal flex-col gap-2 pl-5 text-sm">
          {steps.map((s, i) => (
            <li key={i}>{s}</li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

// How to get the browser extension's collect button: the server hands out the built extension as a zip
// (GET /downloads/meli-erp-extension.zip, server/http/extension-download.ts); the seller unzips it and loads it
// unpacked in Chrome/Edge; on a product page of a supported platform it shows "采集到 ERP" at the bottom right.
import { Download, Puzzle } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { platformOptions } from "../../lib/labels.ts";
import { PlatformType } from "#shared/contract/enums.ts";

/** The server's download of the built extension (server/http/extension-download.ts). */
const EXTENSION_DOWNLOAD_URL = "/downloads/meli-erp-extension.zip";

const code = "bg-muted rounded px-1 py-0.5 text-xs";
const steps = [
  <>
    <a
      href={EXTENSION_DOWNLOAD_URL}
      download
      className="text-primary inline-flex items-center gap-1 font-medium hover:underline"
      data-testid="collect-extension-download"
    >
      <Download aria-hidden="true" className="size-3.5" />
      下载插件安装包
    </a>
    ，解压到一个固定的文件夹（之后不要删除或移动）
  </>,
  <>
    打开 Chrome 或 Edge 的扩展程序页（地址栏输入 <code className={code}>chrome://extensions</code> 或{" "}
    <code className={code}>edge://extensions</code>），开启“开发者模式”
  </>,
  <>点击“加载已解压的扩展程序”，选择刚才解压出的文件夹（里面有 manifest.json）</>,
  <>点击浏览器工具栏中的插件图标，填写服务器地址、公司名称、用户名和密码登录</>,
  <>打开商品详情页，点击页面右下角的“采集到 ERP”按钮即可一键采集；已采集过的商品会显示“已采集”</>,
  <>插件更新时，重新下载并解压覆盖原文件夹，再在扩展程序页点击插件的“重新加载”</>,
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

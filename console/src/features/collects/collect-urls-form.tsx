// 粘贴链接: one product URL per line (http/https, at most MAX_URLS_PER_REQUEST, repeats ignored) → CrawlProductByTool,
// which creates one collection task per URL; the answer says how many, with a way to the task monitor.
import { ArrowRight, CircleCheck } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router-dom";
import { z } from "zod";
import { MAX_URLS_PER_REQUEST } from "@shared/contract/collect.ts";
import { Button } from "@shared/ui/button.tsx";
import { Form, FormField, useZodForm } from "@shared/ui/form.tsx";
import { Textarea } from "@shared/ui/textarea.tsx";
import { useCrawlByTool } from "./api/start-collecting.ts";
import { requestOptionsOf, type CollectOptionsValue } from "./collect-options.tsx";
import { parseUrlLines, urlLinesProblem } from "./format.ts";

const urlsForm = z.object({
  urls: z.string().superRefine((text, ctx) => {
    if (!text.trim()) return; // the required rule says 请输入商品链接
    const problem = urlLinesProblem(parseUrlLines(text));
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
});

type CrawlAnswer = { successCount: number; ignoreCount: number; message: string };

export function CollectUrlsForm({ options }: { options: CollectOptionsValue }) {
  const form = useZodForm(urlsForm, { defaultValues: { urls: "" } });
  const crawl = useCrawlByTool();
  const [answer, setAnswer] = useState<CrawlAnswer | null>(null);
  const parsed = parseUrlLines(form.watch("urls"));
  const over = parsed.urls.length > MAX_URLS_PER_REQUEST;

  function onSubmit({ urls }: z.output<typeof urlsForm>) {
    const list = parseUrlLines(urls).urls;
    setAnswer(null);
    crawl.mutate(
      { urls: list.map((url) => ({ url })), ...requestOptionsOf(options) },
      {
        onSuccess: (r) => {
          setAnswer(r);
          form.reset({ urls: "" });
        },
      },
    );
  }

  return (
    <Form form={form} onSubmit={onSubmit} className="gap-3">
      <FormField
        form={form}
        name="urls"
        label="商品链接"
        required
        description={
          <span data-testid="collect-urls-count">
            每行一个链接，一次最多 {MAX_URLS_PER_REQUEST} 个。已识别{" "}
            <b className={over ? "text-destructive" : "text-foreground"}>{parsed.urls.length}</b> 个
            {parsed.duplicates ? `，重复 ${parsed.duplicates} 个（将忽略）` : ""}
            {parsed.invalid.length ? `，无效 ${parsed.invalid.length} 行` : ""}
          </span>
        }
        render={(field) => (
          <Textarea
            {...field}
            rows={8}
            spellCheck={false}
            className="min-h-40 font-mono text-xs"
            placeholder={
              "https://detail.1688.com/offer/123456789.html\nhttps://item.taobao.com/item.htm?id=123456789\nhttps://www.aliexpress.com/item/1005001234567890.html"
            }
            data-testid="collect-urls-input"
          />
        )}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" loading={crawl.isPending} data-testid="collect-urls-submit">
          开始采集
        </Button>
        <Button variant="ghost" onClick={() => form.reset({ urls: "" })} disabled={crawl.isPending}>
          清空
        </Button>
      </div>
      {answer ? (
        <div
          role="status"
          className="bg-success/5 border-success/30 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border px-3 py-2 text-sm"
          data-testid="collect-urls-result"
          data-success={answer.successCount}
        >
          <CircleCheck aria-hidden="true" className="text-success size-4" />
          <span>
            已创建 <b className="tabular-nums">{answer.successCount}</b> 个采集任务
            {answer.ignoreCount ? (
              <>
                ，忽略重复链接 <b className="tabular-nums">{answer.ignoreCount}</b> 个
              </>
            ) : null}
          </span>
          <Link
            to="/collects/task"
            className="text-primary inline-flex items-center gap-1 hover:underline"
            data-testid="collect-urls-go-tasks"
          >
            查看采集任务
            <ArrowRight className="size-3.5" />
          </Link>
        </div>
      ) : null}
    </Form>
  );
}

// 粘贴链接: one product URL per line (http/https, at most MAX_URLS_PER_REQUEST, repeats ignored) → CreateUrls, which
// puts them in the URL queue like an imported file, so they show below with their progress.
import { useState } from "react";
import { z } from "zod";
import { MAX_URLS_PER_REQUEST } from "#shared/contract/collect.ts";
import { Button } from "#shared/ui/button.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { useCreateUrls } from "./api/start-collecting.ts";
import { requestOptionsOf, type CollectOptionsValue } from "./collect-options.tsx";
import { parseUrlLines, urlLinesProblem } from "./format.ts";
import { UrlQueueAnswer, type QueueAnswer } from "./url-queue-answer.tsx";

const urlsForm = z.object({
  urls: z.string().superRefine((text, ctx) => {
    if (!text.trim()) return; // the required rule says 请输入商品链接
    const problem = urlLinesProblem(parseUrlLines(text));
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
});

export function CollectUrlsForm({ options }: { options: CollectOptionsValue }) {
  const form = useZodForm(urlsForm, { defaultValues: { urls: "" } });
  const createUrls = useCreateUrls();
  const [answer, setAnswer] = useState<QueueAnswer | null>(null);
  const parsed = parseUrlLines(form.watch("urls"));
  const over = parsed.urls.length > MAX_URLS_PER_REQUEST;

  function onSubmit({ urls }: z.output<typeof urlsForm>) {
    const list = parseUrlLines(urls).urls;
    setAnswer(null);
    createUrls.mutate(
      { urls: list, ...requestOptionsOf(options) },
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
        <Button type="submit" loading={createUrls.isPending} data-testid="collect-urls-submit">
          开始采集
        </Button>
        <Button variant="ghost" onClick={() => form.reset({ urls: "" })} disabled={createUrls.isPending}>
          清空
        </Button>
      </div>
      {answer ? <UrlQueueAnswer answer={answer} testId="collect-urls-result" /> : null}
    </Form>
  );
}

// The editor's titles and descriptions, one tab per language (zh, es, pt, en, then any other the product has); the
// description is HTML, edited as text. On the es / pt / en tabs 翻译 fills that language from another one
// (TranslateProduct for this product, titles and descriptions); it works on the saved product, so it asks for unsaved
// changes to be saved first, and reloads the product when the translation is done.
import { Languages } from "lucide-react";
import { useEffect, useState } from "react";
import { TaskType } from "#shared/contract/enums.ts";
import { translateLanguages } from "#shared/contract/product.ts";
import { Button } from "#shared/ui/button.tsx";
import { FormField } from "#shared/ui/form.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#shared/ui/tabs.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { TaskProgress, useTaskProgress } from "../../components/task/task-progress.tsx";
import { useTranslateProducts } from "./api/bulk-edit-products.ts";
import type { EditorForm } from "./editor-types.ts";
import { DESCRIPTION_MAX, TITLE_MAX } from "#shared/publish/product-form.ts";
import { languageName } from "./product-names.ts";

export type EditorTextsProps = {
  form: EditorForm;
  languages: string[];
  /** The saved product (null: a new one, which cannot be translated yet). */
  productId: string | null;
  /** The form or the variants have unsaved changes (translating works on the saved product). */
  dirty: boolean;
  /** Reload the product after a translation. */
  onTranslated: () => void;
};

export function EditorTexts({ form, languages, productId, dirty, onTranslated }: EditorTextsProps) {
  const [tab, setTab] = useState(languages[0]);
  const titles = form.watch("titles");
  const titlesError = form.formState.errors.titles as { message?: string; root?: { message?: string } } | undefined;
  const titleError = titlesError?.message ?? titlesError?.root?.message;
  return (
    <Tabs value={tab} onValueChange={setTab} data-testid="products-editor-texts">
      <TabsList>
        {languages.map((lang) => (
          <TabsTrigger key={lang} value={lang} data-testid={`products-editor-lang-${lang}`}>
            {languageName(lang)}
            {titles[lang]?.trim() ? null : <span className="text-muted-foreground text-xs">（空）</span>}
          </TabsTrigger>
        ))}
      </TabsList>
      {languages.map((lang) => (
        <TabsContent key={lang} value={lang} className="flex flex-col gap-3">
          {(translateLanguages as readonly string[]).includes(lang) ? (
            <TranslateInto form={form} lang={lang} languages={languages} productId={productId} dirty={dirty} onTranslated={onTranslated} />
          ) : null}
          <FormField
            form={form}
            name={`titles.${lang}`}
            label={`标题（${languageName(lang)}）`}
            render={(f) => (
              <Textarea {...f} rows={2} maxLength={TITLE_MAX} className="min-h-14" data-testid={`products-editor-title-${lang}`} />
            )}
          />
          <FormField
            form={form}
            name={`descriptions.${lang}`}
            label={`描述（${languageName(lang)}，HTML）`}
            render={(f) => (
              <Textarea
                {...f}
                rows={8}
                maxLength={DESCRIPTION_MAX}
                className="font-mono text-xs"
                data-testid={`products-editor-description-${lang}`}
              />
            )}
          />
        </TabsContent>
      ))}
      {titleError ? (
        <p role="alert" className="text-destructive text-xs">
          {titleError}
        </p>
      ) : null}
    </Tabs>
  );
}

function TranslateInto({ form, lang, languages, productId, dirty, onTranslated }: EditorTextsProps & { lang: string }) {
  const sources = languages.filter((l) => l !== lang);
  const titles = form.getValues("titles");
  const [from, setFrom] = useState(sources.find((l) => titles[l]?.trim()) ?? sources[0]);
  const [taskId, setTaskId] = useState<string | null>(null);
  const start = useTranslateProducts({
    mutationConfig: { onSuccess: (r) => (r.taskId ? setTaskId(r.taskId) : toast.info(`没有需要翻译的内容`)) },
  });
  const state = useTaskProgress(taskId, TaskType.TranslateProducts);

  useEffect(() => {
    if (!state.done) return;
    if (state.succeeded) {
      toast.success(`已翻译为${languageName(lang)}`);
      onTranslated();
    } else toast.error(`翻译未完成${state.task?.taskRemark ? `：${state.task.taskRemark}` : ""}`);
    setTaskId(null);
  }, [state.done, state.succeeded, state.task?.taskRemark, lang, onTranslated]);

  const busy = start.isPending || !!taskId;
  const hint = !productId ? "保存商品后可翻译" : dirty ? "有未保存的修改，请先保存再翻译" : null;
  return (
    <div className="bg-muted/30 flex flex-col gap-2 rounded-md border p-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-muted-foreground">从</span>
        <Select value={from} onValueChange={setFrom}>
          <SelectTrigger className="h-8 w-32" aria-label="源语言" data-testid={`products-editor-translate-from-${lang}`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {sources.map((l) => (
              <SelectItem key={l} value={l}>
                {languageName(l)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Button
          variant="outline"
          size="sm"
          loading={busy}
          disabled={!!hint}
          onClick={() =>
            start.mutate({ productIds: [productId!], from, to: lang as (typeof translateLanguages)[number], isContainsDescription: true })
          }
          data-testid={`products-editor-translate-${lang}`}
        >
          <Languages />
          翻译为{languageName(lang)}
        </Button>
        {hint ? <span className="text-muted-foreground text-xs">{hint}</span> : null}
      </div>
      {taskId ? <TaskProgress state={state} testId={`products-editor-translate-progress-${lang}`} /> : null}
    </div>
  );
}

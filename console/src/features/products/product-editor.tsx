// The product editor, a drawer opened from 编辑 (the product is loaded fresh) or 新建商品: titles and descriptions per
// language with translation, price, currency, stock, SKU, brand, size, weight (with 预估重量), profit, the category
// (site and tree-select, with 推荐类目), images and the main image, video, attributes and the variant grid. Saved with
// CreateOrUpdateProduct and the concurrency stamp read: a 409 (someone saved in between) shows the server's message and
// offers the current data.
import { TriangleAlert } from "lucide-react";
import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from "react";
import type { ProductDetail } from "#shared/contract/product.ts";
import { Button } from "#shared/ui/button.tsx";
import { confirm } from "#shared/ui/confirm.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Sheet, SheetContent, SheetDescription, SheetFooter, SheetHeader, SheetTitle } from "#shared/ui/sheet.tsx";
import { Loading } from "#shared/ui/spinner.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { EditorAttributes } from "./editor-attributes.tsx";
import { EditorCategory } from "./editor-category.tsx";
import { EditorImages } from "./editor-images.tsx";
import { EditorTexts } from "./editor-texts.tsx";
import type { EditorForm } from "./editor-types.ts";
import { isConflict } from "../../lib/query-client.ts";
import { useSaveProduct } from "./api/edit-products.ts";
import { useProduct } from "./api/get-products.ts";
import { editorLanguagesOf, editorValuesOf, productEditorForm, saveBodyOf, type ProductEditorOutput } from "./product-editor-schema.ts";
import { VariantGrid } from "./variant-grid.tsx";
import { gridOf, gridProblems, type VariantGrid as Grid } from "./variant-model.ts";
import { WeightPredictButton } from "./weight-predict.tsx";

/** What the editor shows: a product by id, a new product (id null), or nothing (closed). */
export type EditorTarget = { id: string | null } | null;

export function ProductEditor({ target, onClose }: { target: EditorTarget; onClose: () => void }) {
  // Whether the open form has unsaved changes (asked before closing).
  const dirty = useRef(false);
  async function requestClose() {
    if (dirty.current) {
      const ok = await confirm({ title: "放弃未保存的修改？", description: "关闭后本次修改不会保存。", confirmText: "放弃修改" });
      if (!ok) return;
    }
    dirty.current = false;
    onClose();
  }
  return (
    <Sheet open={!!target} onOpenChange={(open) => !open && void requestClose()}>
      {target ? (
        <SheetContent
          className="w-full gap-0 p-0 sm:max-w-5xl"
          data-testid="products-editor"
          onEscapeKeyDown={(e) => dirty.current && e.preventDefault()}
        >
          <SheetHeader className="border-b px-6">
            <SheetTitle>{target.id ? "编辑商品" : "新建商品"}</SheetTitle>
            <SheetDescription>标题、描述可按语言分别填写；价格、库存也可按规格逐个修改。</SheetDescription>
          </SheetHeader>
          {target.id ? (
            <LoadedEditor key={target.id} id={target.id} dirty={dirty} onClose={() => void requestClose()} onSaved={onClose} />
          ) : (
            <EditorBody
              detail={null}
              onReload={async () => undefined}
              dirty={dirty}
              onClose={() => void requestClose()}
              onSaved={onClose}
            />
          )}
        </SheetContent>
      ) : null}
    </Sheet>
  );
}

type BodyProps = {
  dirty: { current: boolean };
  onClose: () => void;
  onSaved: () => void;
};

function LoadedEditor({ id, ...props }: BodyProps & { id: string }) {
  const detail = useProduct(id);
  if (detail.isPending) return <Loading />;
  if (!detail.data) {
    return (
      <div className="flex flex-col items-center gap-3 py-10">
        <p className="text-muted-foreground text-sm">无法加载该商品，可能已被删除。</p>
        <Button variant="outline" onClick={props.onClose}>
          关闭
        </Button>
      </div>
    );
  }
  return <EditorBody detail={detail.data} onReload={async () => (await detail.refetch()).data} {...props} />;
}

function EditorBody({
  detail,
  onReload,
  dirty,
  onClose,
  onSaved,
}: BodyProps & { detail: ProductDetail | null; onReload: () => Promise<ProductDetail | undefined> }) {
  const save = useSaveProduct();
  // The version the form shows; its stamp is the one sent back.
  const [base, setBase] = useState(detail);
  const form = useZodForm(productEditorForm, { defaultValues: editorValuesOf(detail) });
  const [grid, setGridState] = useState<Grid>(() => gridOf(detail?.variantModel));
  const [gridDirty, setGridDirty] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const isDirty = form.formState.isDirty || gridDirty;
  dirty.current = isDirty;

  const setGrid = (g: Grid) => {
    setGridState(g);
    setGridDirty(true);
    setProblems([]);
  };
  function load(d: ProductDetail) {
    setBase(d);
    form.reset(editorValuesOf(d));
    setGridState(gridOf(d.variantModel));
    setGridDirty(false);
    setConflict(null);
    setProblems([]);
  }
  async function reload() {
    const fresh = await onReload();
    if (fresh) load(fresh);
  }

  // Fresher data replaces what is shown, unless the user has started editing (only a new detail is looked at).
  const onFreshDetail = useEffectEvent((fresh: ProductDetail) => {
    if (fresh.concurrencyStamp === base?.concurrencyStamp || isDirty) return;
    load(fresh);
  });
  useEffect(() => {
    if (detail) onFreshDetail(detail);
  }, [detail]);

  function onSubmit(values: ProductEditorOutput) {
    const found = gridProblems(grid);
    setProblems(found);
    if (found.length) return;
    save.mutate(saveBodyOf(base, values, grid), {
      onSuccess: () => {
        toast.success(base ? "商品已保存" : "商品已创建");
        dirty.current = false;
        onSaved();
      },
      onError: (error) => {
        if (!isConflict(error)) return;
        const message = error.serverMessage || "该商品已被其他人修改，请加载最新数据后重新编辑";
        setConflict(message);
        toast.warning(message);
      },
    });
  }

  const productId = base?.id ?? null;
  return (
    <Form form={form} onSubmit={onSubmit} className="flex min-h-0 flex-1 flex-col gap-0" data-testid="products-editor-form">
      <div className="flex min-h-0 flex-1 flex-col gap-6 overflow-y-auto px-6 py-4">
        {conflict ? (
          <div
            role="alert"
            className="border-warning/40 bg-warning/10 flex flex-wrap items-center gap-2 rounded-md border p-3 text-sm"
            data-testid="products-editor-conflict"
          >
            <TriangleAlert className="text-warning size-4" />
            <span className="flex-1">{conflict}</span>
            <Button variant="outline" size="sm" onClick={() => void reload()} data-testid="products-editor-reload">
              加载最新数据（放弃我的修改）
            </Button>
          </div>
        ) : null}
        {base ? (
          <p className="text-muted-foreground text-xs">
            最后修改：{formatDateTime(base.lastModificationTime ?? base.creationTime)}
            {base.owner ? ` · 所属账号：${base.owner}` : ""}
          </p>
        ) : null}
        <Section title="标题与描述">
          <EditorTexts
            form={form}
            languages={editorLanguagesOf(base)}
            productId={productId}
            dirty={isDirty}
            onTranslated={() => void reload()}
          />
        </Section>
        <Section title="基本信息">
          <div className="grid gap-4 sm:grid-cols-3">
            <Field form={form} name="price" label="价格" testId="products-editor-price" inputMode="decimal" />
            <Field form={form} name="currency" label="币种" testId="products-editor-currency" placeholder="如 CNY" maxLength={3} />
            <Field form={form} name="stock" label="库存" testId="products-editor-stock" inputMode="numeric" />
            <Field form={form} name="sku" label="SKU" testId="products-editor-sku" maxLength={128} />
            <Field form={form} name="brand" label="品牌" testId="products-editor-brand" maxLength={200} />
            <Field form={form} name="profit" label="利润率（%）" testId="products-editor-profit" inputMode="decimal" />
            <Field form={form} name="size" label="尺寸（长x宽x高，厘米）" testId="products-editor-size" placeholder="如 30x20x10" />
            <div className="flex flex-col gap-2 sm:col-span-2">
              <Field form={form} name="weight" label="重量（克）" testId="products-editor-weight" inputMode="decimal" />
              <WeightPredictButton form={form} productId={productId} />
            </div>
          </div>
        </Section>
        <Section title="类目">
          <EditorCategory form={form} productId={productId} />
        </Section>
        <Section title="图片与视频">
          <EditorImages form={form} />
          <Field form={form} name="videoUrl" label="视频链接" testId="products-editor-video" placeholder="https://..." />
        </Section>
        <Section title="规格">
          <VariantGrid grid={grid} onChange={setGrid} />
          {problems.length ? (
            <ul role="alert" className="text-destructive list-disc pl-5 text-xs" data-testid="products-editor-variant-problems">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : null}
        </Section>
        <Section title="属性">
          <EditorAttributes form={form} />
        </Section>
      </div>
      <SheetFooter className="flex-row justify-end border-t px-6">
        <Button variant="outline" onClick={onClose} disabled={save.isPending}>
          取消
        </Button>
        <Button type="submit" loading={save.isPending} data-testid="products-editor-save">
          保存
        </Button>
      </SheetFooter>
    </Form>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3" aria-label={title}>
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

type TextField = "price" | "currency" | "stock" | "sku" | "brand" | "profit" | "size" | "weight" | "videoUrl";

function Field({
  form,
  name,
  label,
  testId,
  ...input
}: {
  form: EditorForm;
  name: TextField;
  label: string;
  testId: string;
  placeholder?: string;
  maxLength?: number;
  inputMode?: "decimal" | "numeric";
}) {
  return <FormField form={form} name={name} label={label} render={(f) => <Input {...f} {...input} data-testid={testId} />} />;
}

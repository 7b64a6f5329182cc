// 填写属性 for one product (issue 28): when the batch publishes each product in its own category (no category chosen
// for the site above), a missing attribute is fixed on the product itself. The dialog reads the product (its category
// and the values it has) and that category's attributes (GetAttributes), asks the required and conditional ones with
// those the pre-flight found missing marked, and saves them with UpdateProductAttr (the product's other values kept);
// the publish screen then checks again, so a mixed batch is fixed in place, product by product.
import { useEffect, useMemo, useState } from "react";
import type { ProductDetail } from "#shared/contract/product.ts";
import { askedAttributes } from "#shared/publish/category-form.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { useCategoryAttributes } from "./api/get-publish-inputs.ts";
import { useProductForAttrs, useUpdateProductAttrs } from "./api/product-attrs.ts";
import { AttributeInput } from "./attribute-input.tsx";
import type { AttrValue } from "./site-category-form.tsx";

/** The product a fix link names, and the attributes its pre-flight found missing. */
export type AttrsTarget = { productId: string; productTitle: string; missing: string[] };

export const productAttrFieldId = (attrId: string) => `publish-product-attr-${attrId}`;

type Attrs = Record<string, AttrValue>;
type CateAttr = NonNullable<ProductDetail["cateInfo"]>["attrs"][number];

const attrsOf = (p: ProductDetail | undefined): Attrs =>
  Object.fromEntries((p?.cateInfo?.attrs ?? []).map((a) => [a.nameId, { valueId: a.valueId ?? null, valueName: a.value ?? null }]));

const filled = (v: AttrValue | undefined) => !!(v?.valueId || v?.valueName?.trim());

/** UpdateProductAttr's list: the product's values with the dialog's in place; an emptied value is dropped. */
export function mergedAttrs(own: readonly CateAttr[], edited: Attrs, names: Record<string, string>): CateAttr[] {
  const out = new Map(own.map((a) => [a.nameId, a]));
  for (const [id, v] of Object.entries(edited)) {
    if (!filled(v)) out.delete(id);
    else
      out.set(id, {
        nameId: id,
        name: names[id] ?? out.get(id)?.name ?? "",
        valueId: v.valueId ?? null,
        value: v.valueName?.trim() || null,
      });
  }
  return [...out.values()];
}

export function ProductAttrsDialog({ target, onClose, onSaved }: { target: AttrsTarget | null; onClose: () => void; onSaved: () => void }) {
  const product = useProductForAttrs(target?.productId ?? null);
  const cate = product.data?.cateInfo ?? null;
  const attributes = useCategoryAttributes(cate?.site ?? 0, cate?.cateId);
  const save = useUpdateProductAttrs();
  const [edited, setEdited] = useState<Attrs>({});
  useEffect(() => setEdited({}), [target?.productId]);
  const values = useMemo(() => ({ ...attrsOf(product.data), ...edited }), [product.data, edited]);
  const asked = useMemo(() => {
    const all = attributes.data ? askedAttributes(attributes.data.attributes) : [];
    const missing = new Set(target?.missing ?? []);
    // What the pre-flight asks for first, then the rest of the form.
    return [...all.filter((a) => missing.has(a.attr.id)), ...all.filter((a) => !missing.has(a.attr.id))];
  }, [attributes.data, target]);

  function submit() {
    if (!target || !product.data) return;
    const names = Object.fromEntries((attributes.data?.attributes ?? []).map((a) => [a.id, a.name]));
    save.mutate(
      { productId: target.productId, attrs: mergedAttrs(product.data.cateInfo?.attrs ?? [], edited, names) },
      {
        onSuccess: () => {
          toast.success(`商品「${target.productTitle}」的属性已保存，正在重新检查`);
          onSaved();
          onClose();
        },
      },
    );
  }

  const loading = product.isLoading || (!!cate && attributes.isLoading);
  return (
    <Dialog open={!!target} onOpenChange={(open) => !open && !save.isPending && onClose()}>
      <DialogContent className="sm:max-w-2xl" data-testid="publish-product-attrs-dialog">
        <DialogHeader>
          <DialogTitle>填写属性</DialogTitle>
          <DialogDescription>
            商品「{target?.productTitle}」按自己的类目刊登
            {product.data?.categoryName || cate?.cateId ? `（${product.data?.categoryName || cate?.cateId}）` : ""}
            ：属性保存到商品上，保存后重新检查。
          </DialogDescription>
        </DialogHeader>
        {loading ? (
          <div className="text-muted-foreground flex items-center gap-2 text-sm">
            <Spinner /> 正在读取商品和类目属性…
          </div>
        ) : !cate ? (
          <p className="text-destructive text-sm">该商品还没有类目，请先在上方为站点选择类目或编辑商品选择类目。</p>
        ) : asked.length === 0 ? (
          <p className="text-muted-foreground text-sm">该类目没有需要填写的属性。</p>
        ) : (
          <div className="grid max-h-[60vh] gap-x-4 gap-y-2 overflow-y-auto sm:grid-cols-2" data-testid="publish-product-attrs">
            {asked.map(({ attr, required }) => (
              <AttributeInput
                key={attr.id}
                id={productAttrFieldId(attr.id)}
                attr={attr}
                required={required}
                missing={!!target?.missing.includes(attr.id) && !filled(values[attr.id])}
                value={values[attr.id] ?? {}}
                onChange={(v) => setEdited((cur) => ({ ...cur, [attr.id]: v }))}
              />
            ))}
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            取消
          </Button>
          <Button onClick={submit} disabled={!cate || loading} loading={save.isPending} data-testid="publish-product-attrs-save">
            保存并重新检查
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

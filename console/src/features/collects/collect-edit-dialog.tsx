// 查看/编辑 a collected product: it is loaded fresh (GetCollectById) and shown with its images, source, shop, variants
// and attributes; the title (per language), price and currency, weight, brand and status can be changed
// (UpdateCollect, with the concurrency stamp: a 409 means someone changed it meanwhile; the dialog says so and shows
// the current data).
import { ExternalLink } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import type { CollectDetail, CollectListItem } from "#shared/contract/collect.ts";
import { CollectSource } from "#shared/contract/enums.ts";
import { Badge } from "#shared/ui/badge.tsx";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { Loading } from "#shared/ui/spinner.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { isConflict } from "../../lib/query-client.ts";
import { useUpdateCollect } from "./api/edit-collects.ts";
import { useCollect } from "./api/get-collects.ts";
import { collectEditForm, editValuesOf, titleLanguagesOf, updateBodyOf, TITLE_MAX, type CollectEditOutput } from "./collect-edit-schema.ts";
import { formatDateTime, formatPrice } from "../../lib/format.ts";
import { Thumb } from "../../components/list/thumb.tsx";
import { platformLabel } from "../../lib/labels.ts";
import { languageLabels, titleOf } from "./format.ts";
import { collectStatusOptions } from "./labels.ts";

const MAX_IMAGES_SHOWN = 12;
const MAX_VARIANTS_SHOWN = 100;

/** Edits `row` (from the list); null closes the dialog. */
export function CollectEditDialog({ row, onClose }: { row: CollectListItem | null; onClose: () => void }) {
  return (
    <Dialog open={!!row} onOpenChange={(open) => !open && onClose()}>
      {row && (
        <DialogContent className="sm:max-w-4xl" data-testid="collect-edit-dialog">
          <DialogHeader>
            <DialogTitle>采集商品详情</DialogTitle>
            <DialogDescription className="truncate" title={titleOf(row.title).text}>
              {titleOf(row.title).text || "（无标题）"}
            </DialogDescription>
          </DialogHeader>
          <EditBody key={row.id} id={row.id} onDone={onClose} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function EditBody({ id, onDone }: { id: string; onDone: () => void }) {
  const detail = useCollect(id);
  if (detail.isPending) return <Loading />;
  if (!detail.data) {
    return (
      <div className="flex flex-col items-center gap-3 py-8">
        <p className="text-muted-foreground text-sm">无法加载该采集商品，可能已被删除。</p>
        <Button variant="outline" onClick={onDone}>
          关闭
        </Button>
      </div>
    );
  }
  return <EditForm detail={detail.data} onReload={async () => (await detail.refetch()).data} onDone={onDone} />;
}

function EditForm({
  detail,
  onReload,
  onDone,
}: {
  detail: CollectDetail;
  onReload: () => Promise<CollectDetail | undefined>;
  onDone: () => void;
}) {
  const update = useUpdateCollect();
  // The version whose values the form shows; its stamp is the one sent back.
  const [base, setBase] = useState(detail);
  const form = useZodForm(collectEditForm, { defaultValues: editValuesOf(detail) });

  // Fresher data replaces what is shown, unless the user has started typing.
  useEffect(() => {
    if (detail.concurrencyStamp === base.concurrencyStamp || form.formState.isDirty) return;
    setBase(detail);
    form.reset(editValuesOf(detail));
  }, [detail, base.concurrencyStamp, form]);

  function onSubmit(values: CollectEditOutput) {
    update.mutate(updateBodyOf(base, values), {
      onSuccess: () => {
        toast.success("采集商品已保存");
        onDone();
      },
      onError: async (error) => {
        if (!isConflict(error)) return;
        toast.warning("该商品已被其他人修改，已加载最新数据，请确认后重新保存");
        const fresh = await onReload();
        if (fresh) {
          setBase(fresh);
          form.reset(editValuesOf(fresh));
        }
      },
    });
  }

  const languages = titleLanguagesOf(base.title);
  // The "at least one title" rule is on the whole map, so its message is not any one field's.
  const titlesError = form.formState.errors.titles as { message?: string; root?: { message?: string } } | undefined;
  const titleError = titlesError?.message ?? titlesError?.root?.message;

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
      <ProductFacts d={base} />
      <Form form={form} onSubmit={onSubmit} data-testid="collect-edit-form">
        {languages.map((lang) => (
          <FormField
            key={lang}
            form={form}
            name={`titles.${lang}`}
            label={`标题（${languageLabels[lang] ?? lang}）`}
            render={(field) => (
              <Textarea {...field} rows={2} maxLength={TITLE_MAX} className="min-h-14" data-testid={`collect-edit-title-${lang}`} />
            )}
          />
        ))}
        {titleError ? (
          <p role="alert" className="text-destructive -mt-2 text-xs">
            {titleError}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField
            form={form}
            name="price"
            label="价格"
            render={(field) => <Input {...field} inputMode="decimal" placeholder="未设置" data-testid="collect-edit-price" />}
          />
          <FormField
            form={form}
            name="currency"
            label="币种"
            render={(field) => (
              <Input {...field} maxLength={3} placeholder="如 CNY" className="uppercase" data-testid="collect-edit-currency" />
            )}
          />
          <FormField
            form={form}
            name="weight"
            label="重量（克）"
            render={(field) => <Input {...field} inputMode="decimal" placeholder="未设置" data-testid="collect-edit-weight" />}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            form={form}
            name="brand"
            label="品牌"
            render={(field) => <Input {...field} maxLength={200} placeholder="选填" data-testid="collect-edit-brand" />}
          />
          <FormField
            form={form}
            name="status"
            label="状态"
            render={({ value, onChange, ref, name, id, ...aria }) => (
              <Select name={name} value={value} onValueChange={onChange}>
                <SelectTrigger ref={ref} id={id} {...aria} data-testid="collect-edit-status">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {collectStatusOptions.map((o) => (
                    <SelectItem key={o.value} value={String(o.value)}>
                      {o.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onDone}>
            取消
          </Button>
          <Button type="submit" loading={update.isPending} data-testid="collect-edit-submit">
            保存
          </Button>
        </DialogFooter>
      </Form>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground whitespace-nowrap">{label}</dt>
      <dd className="min-w-0 break-all">{children}</dd>
    </>
  );
}

/** What the product is (read only): images, source, shop, variants, attributes. */
function ProductFacts({ d }: { d: CollectDetail }) {
  const images = d.images.length ? d.images : d.image ? [d.image] : [];
  const title = titleOf(d.title).text;
  return (
    <div className="flex min-w-0 flex-col gap-4 text-sm">
      <div className="flex flex-wrap gap-2" aria-label="商品图片">
        {images.slice(0, MAX_IMAGES_SHOWN).map((src, i) => (
          <a key={`${i}-${src}`} href={src} target="_blank" rel="noopener noreferrer" title="查看原图">
            <Thumb src={src} alt={`${title} 图片 ${i + 1}`} size={i === 0 ? 132 : 62} />
          </a>
        ))}
        {images.length === 0 ? <Thumb src={null} alt="无图片" size={132} /> : null}
        {images.length > MAX_IMAGES_SHOWN ? <span className="text-muted-foreground self-end text-xs">共 {images.length} 张</span> : null}
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5">
        <Fact label="来源平台">
          <Badge variant="outline">{platformLabel(d.platformType)}</Badge>
          <span className="text-muted-foreground ml-2 text-xs">{d.source === CollectSource.Plugin ? "插件采集" : "链接采集"}</span>
        </Fact>
        <Fact label="商品ID">
          <span className="tabular-nums">{d.itemId}</span>
        </Fact>
        <Fact label="价格">
          {formatPrice(d.price, d.priceMax, d.currency)}
          <span className="text-muted-foreground ml-2 text-xs">{d.isDiscountPrice ? "优惠价" : "原价"}</span>
        </Fact>
        {d.stock != null ? <Fact label="库存">{d.stock.toLocaleString("zh-CN")}</Fact> : null}
        {d.shop?.name ? (
          <Fact label="店铺">
            {d.shop.url ? (
              <a className="text-primary hover:underline" href={d.shop.url} target="_blank" rel="noopener noreferrer">
                {d.shop.name}
              </a>
            ) : (
              d.shop.name
            )}
          </Fact>
        ) : null}
        {d.infringementWord ? (
          <Fact label="侵权词">
            <Badge variant="destructive">{d.infringementWord}</Badge>
          </Fact>
        ) : null}
        <Fact label="采集人">{d.owner ?? "-"}</Fact>
        <Fact label="采集时间">{formatDateTime(d.creationTime)}</Fact>
        <Fact label="最后修改">{formatDateTime(d.lastModificationTime)}</Fact>
        <Fact label="源链接">
          <a
            className="text-primary inline-flex items-center gap-1 hover:underline"
            href={d.sourceUrl}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="collect-edit-source"
          >
            <span className="line-clamp-2">{d.sourceUrl}</span>
            <ExternalLink className="size-3 shrink-0" />
          </a>
        </Fact>
        {d.videoUrl ? (
          <Fact label="视频">
            <a className="text-primary hover:underline" href={d.videoUrl} target="_blank" rel="noopener noreferrer">
              查看视频
            </a>
          </Fact>
        ) : null}
      </dl>
      {d.variants.length ? <Variants d={d} /> : null}
      {d.attributes.length ? (
        <div className="flex flex-col gap-1.5">
          <p className="font-medium">商品属性</p>
          <dl className="bg-muted/40 grid max-h-40 grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 overflow-auto rounded-md border p-2 text-xs">
            {d.attributes.map((a, i) => (
              <Fact key={`${i}-${a.name}`} label={a.name}>
                {a.value}
              </Fact>
            ))}
          </dl>
        </div>
      ) : null}
    </div>
  );
}

function Variants({ d }: { d: CollectDetail }) {
  return (
    <div className="flex flex-col gap-1.5">
      <p className="font-medium">
        规格 <span className="text-muted-foreground text-xs font-normal">共 {d.variants.length} 个 SKU</span>
      </p>
      <div className="max-h-48 overflow-auto rounded-md border">
        <table className="w-full text-xs" aria-label="规格">
          <thead className="bg-muted/60 sticky top-0">
            <tr>
              <th className="px-2 py-1.5 text-left font-medium">规格</th>
              <th className="px-2 py-1.5 text-right font-medium">价格</th>
              <th className="px-2 py-1.5 text-right font-medium">库存</th>
            </tr>
          </thead>
          <tbody>
            {d.variants.slice(0, MAX_VARIANTS_SHOWN).map((v) => (
              <tr key={v.sku} className="border-t">
                <td className="px-2 py-1.5" title={`SKU ${v.sku}`}>
                  {v.variant_Values.join(" / ") || v.sku}
                </td>
                <td className="px-2 py-1.5 text-right tabular-nums">{formatPrice(v.price, null, null)}</td>
                <td className="px-2 py-1.5 text-right tabular-nums">{v.stock ?? "-"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

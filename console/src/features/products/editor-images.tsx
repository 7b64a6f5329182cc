// The editor's images: a list of URLs (at most 50) with a preview each; one is the main image (主图).
import { Plus, Star, Trash2 } from "lucide-react";
import { useState } from "react";
import { useFieldArray } from "react-hook-form";
import { Button } from "#shared/ui/button.tsx";
import { cn } from "#shared/ui/cn.ts";
import { Input } from "#shared/ui/input.tsx";
import { Thumb } from "../../components/list/thumb.tsx";
import type { EditorForm } from "./editor-types.ts";
import { MAX_IMAGES } from "#shared/publish/product-form.ts";

export function EditorImages({ form }: { form: EditorForm }) {
  const images = useFieldArray({ control: form.control, name: "images" });
  const main = form.watch("mainImage");
  const urls = form.watch("images");
  const [adding, setAdding] = useState("");
  const errors = form.formState.errors.images;

  function add() {
    const url = adding.trim();
    if (!url) return;
    images.append({ url });
    if (!main) form.setValue("mainImage", url, { shouldDirty: true });
    setAdding("");
  }

  return (
    <div className="flex flex-col gap-2" data-testid="products-editor-images">
      <div className="flex flex-wrap gap-2">
        {images.fields.map((f, i) => {
          const url = urls[i]?.url ?? "";
          const isMain = !!url && url === main;
          const error = errors?.[i]?.url?.message;
          return (
            <div key={f.id} className={cn("flex w-40 flex-col gap-1 rounded-md border p-1.5", isMain && "border-primary")}>
              <Thumb src={url} alt={`图片 ${i + 1}`} size={136} className="w-full" />
              <Input
                {...form.register(`images.${i}.url`)}
                aria-label={`图片 ${i + 1} 链接`}
                aria-invalid={!!error}
                className="h-7 text-xs"
                title={error ?? url}
              />
              <div className="flex items-center justify-between">
                <Button
                  variant="ghost"
                  size="sm"
                  className={cn("h-6 px-1.5", isMain ? "text-primary" : "text-muted-foreground")}
                  onClick={() => form.setValue("mainImage", url, { shouldDirty: true })}
                  disabled={isMain || !url}
                  data-testid={`products-editor-main-image-${i}`}
                >
                  <Star className={isMain ? "fill-current" : undefined} />
                  {isMain ? "主图" : "设为主图"}
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-destructive hover:text-destructive h-6 px-1.5"
                  aria-label={`删除图片 ${i + 1}`}
                  onClick={() => {
                    images.remove(i);
                    if (isMain) form.setValue("mainImage", urls.find((_, k) => k !== i)?.url ?? "", { shouldDirty: true });
                  }}
                >
                  <Trash2 />
                </Button>
              </div>
            </div>
          );
        })}
      </div>
      {images.fields.length < MAX_IMAGES ? (
        <div className="flex gap-2">
          <Input
            value={adding}
            onChange={(e) => setAdding(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                add();
              }
            }}
            placeholder="图片链接 https://..."
            aria-label="新图片链接"
            className="max-w-md"
            data-testid="products-editor-image-url"
          />
          <Button variant="outline" onClick={add} disabled={!adding.trim()} data-testid="products-editor-image-add">
            <Plus />
            添加图片
          </Button>
        </div>
      ) : null}
      {errors?.message || errors?.root?.message ? (
        <p className="text-destructive text-xs">{errors.message ?? errors.root?.message}</p>
      ) : null}
    </div>
  );
}

// The editor's attributes: name / value rows (e.g. 材质 / 棉), added and removed freely.
import { Plus, Trash2 } from "lucide-react";
import { useFieldArray } from "react-hook-form";
import { Button } from "#shared/ui/button.tsx";
import { Input } from "#shared/ui/input.tsx";
import type { EditorForm } from "./editor-types.ts";

export function EditorAttributes({ form }: { form: EditorForm }) {
  const rows = useFieldArray({ control: form.control, name: "attributes" });
  const errors = form.formState.errors.attributes;
  return (
    <div className="flex flex-col gap-2" data-testid="products-editor-attributes">
      {rows.fields.map((f, i) => {
        const nameError = errors?.[i]?.name?.message;
        const valueError = errors?.[i]?.value?.message;
        return (
          <div key={f.id} className="flex flex-col gap-1">
            <div className="flex items-center gap-2">
              <Input
                {...form.register(`attributes.${i}.name`)}
                placeholder="属性名"
                aria-label={`属性 ${i + 1} 名称`}
                aria-invalid={!!nameError}
                maxLength={200}
                className="h-8 w-40"
              />
              <Input
                {...form.register(`attributes.${i}.value`)}
                placeholder="属性值"
                aria-label={`属性 ${i + 1} 值`}
                aria-invalid={!!valueError}
                maxLength={2000}
                className="h-8 flex-1"
              />
              <Button
                variant="ghost"
                size="icon"
                className="text-destructive hover:text-destructive size-8"
                aria-label={`删除属性 ${i + 1}`}
                onClick={() => rows.remove(i)}
              >
                <Trash2 />
              </Button>
            </div>
            {nameError || valueError ? <p className="text-destructive text-xs">{nameError ?? valueError}</p> : null}
          </div>
        );
      })}
      <div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => rows.append({ name: "", value: "" })}
          data-testid="products-editor-attribute-add"
        >
          <Plus />
          添加属性
        </Button>
      </div>
    </div>
  );
}

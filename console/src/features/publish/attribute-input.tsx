// One category attribute's value as the seller fills it: a choice among the attribute's values (named in Chinese where
// known, as the site's form names them), or free text (with the unit hint of a number-with-unit attribute). The
// publish screen's site form and the product attributes dialog (填写属性) use it.
import type { CategoryAttribute } from "#shared/contract/category.ts";
import { attributeLabel, withChinese } from "#shared/contract/names.ts";
import { EMPTY_GTIN_REASON, emptyGtinReasonZh } from "#shared/publish/gtin-rule.ts";
import { Input } from "#shared/ui/input.tsx";
import { Label } from "#shared/ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { cn } from "#shared/ui/cn.ts";
import type { AttrValue } from "./site-category-form.tsx";

export function AttributeInput({
  id,
  attr,
  required,
  missing,
  value,
  onChange,
  optionalNote = "（建议填写）",
}: {
  id: string;
  attr: CategoryAttribute;
  required: boolean;
  /** The pre-flight found it missing and it is still empty: marked red. */
  missing: boolean;
  value: AttrValue;
  onChange: (v: AttrValue) => void;
  /** After the label of an attribute that is not required. */
  optionalNote?: string;
}) {
  return (
    <div className="flex flex-col gap-1" data-required={required}>
      <Label htmlFor={id} className={cn("text-xs", missing && "text-destructive")}>
        {required ? <span className="text-destructive">* </span> : null}
        {attributeLabel(attr)}
        {required ? null : <span className="text-muted-foreground">{optionalNote}</span>}
      </Label>
      {attr.values.length > 0 ? (
        <Select
          value={value.valueId ?? ""}
          onValueChange={(v) => onChange({ valueId: v, valueName: attr.values.find((x) => x.id === v)?.name ?? null })}
        >
          <SelectTrigger id={id} className="h-8" aria-invalid={missing || undefined} data-testid={id}>
            <SelectValue placeholder="请选择" />
          </SelectTrigger>
          <SelectContent>
            {attr.values.map((v) => (
              <SelectItem key={v.id} value={v.id} data-testid={`${id}-${v.id}`}>
                {withChinese(v.name, v.zh || (attr.id === EMPTY_GTIN_REASON ? emptyGtinReasonZh(v.id) : null))}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      ) : (
        <Input
          id={id}
          className="h-8"
          value={value.valueName ?? ""}
          maxLength={attr.valueMaxLength ?? 255}
          placeholder={attr.defaultUnit ? `数值和单位，如 10 ${attr.defaultUnit}` : "填写属性值"}
          aria-invalid={missing || undefined}
          onChange={(e) => onChange({ valueId: null, valueName: e.target.value })}
          data-testid={id}
        />
      )}
    </div>
  );
}

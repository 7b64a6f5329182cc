// The options a collect request carries (spec §3): the source platform (blank: the server detects it from each URL)
// and whether to take the discounted price (default: the tenant's collect setting).
import { Label } from "#shared/ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#shared/ui/select.tsx";
import { Switch } from "#shared/ui/switch.tsx";
import { platformOptions } from "../../lib/labels.ts";

export const AUTO_PLATFORM = "auto";

export type CollectOptionsValue = {
  /** A PlatformType value, or AUTO_PLATFORM. */
  platform: string;
  isDiscountPrice: boolean;
};

/** The request fields of the options. */
export function requestOptionsOf(v: CollectOptionsValue): { platformType?: number; isDiscountPrice: boolean } {
  return { ...(v.platform === AUTO_PLATFORM ? {} : { platformType: Number(v.platform) }), isDiscountPrice: v.isDiscountPrice };
}

export function CollectOptions({ value, onChange }: { value: CollectOptionsValue; onChange: (v: CollectOptionsValue) => void }) {
  return (
    <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
      <div className="flex items-center gap-2">
        <Label htmlFor="collect-platform" className="whitespace-nowrap">
          来源平台
        </Label>
        <Select value={value.platform} onValueChange={(platform) => onChange({ ...value, platform })}>
          <SelectTrigger id="collect-platform" className="w-44" data-testid="collect-platform">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={AUTO_PLATFORM}>自动识别（按链接）</SelectItem>
            {platformOptions.map((o) => (
              <SelectItem key={o.value} value={String(o.value)} data-testid={`collect-platform-${o.value}`}>
                {o.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <Switch
          checked={value.isDiscountPrice}
          onCheckedChange={(isDiscountPrice) => onChange({ ...value, isDiscountPrice })}
          data-testid="collect-discount"
        />
        <span className="font-medium">采集优惠价</span>
        <span className="text-muted-foreground text-xs">{value.isDiscountPrice ? "取商品的优惠（促销）价" : "取商品的原价"}</span>
      </label>
    </div>
  );
}

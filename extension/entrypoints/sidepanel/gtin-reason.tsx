// 无条码原因: for each category site where the pre-flight found the GTIN pool short and the category takes
// EMPTY_GTIN_REASON (lib/panel-gtin.ts), the documented reasons in Chinese; the chosen one is sent with the site's
// attributes and the pool is not used for it. Codes are added in the console's GTIN管理.
import { EMPTY_GTIN_REASONS } from "#shared/publish/gtin-rule.ts";
import type { GtinReasons } from "../../lib/panel-publish.ts";
import { Field } from "./ui.tsx";

export function GtinReasonFields({
  sites,
  siteName,
  value,
  onChange,
}: {
  /** The category sites asked (gtinReasonSites). */
  sites: number[];
  siteName: (site: number) => string;
  value: GtinReasons;
  onChange: (next: GtinReasons) => void;
}) {
  if (!sites.length) return null;
  return (
    <div className="gtin-reason" data-testid="panel-gtin-reason">
      <p className="small warn">商品没有 GTIN 且 GTIN 码池不足：可在后台「产品中心 › GTIN管理」添加编码，或选择商品没有条码的原因。</p>
      {sites.map((site) => (
        <Field key={site} label={`${siteName(site)} 无条码原因`}>
          <select
            value={value[site] ?? ""}
            onChange={(e) => onChange({ ...value, [site]: e.target.value || undefined })}
            data-testid={`panel-gtin-reason-${site}`}
          >
            <option value="">不选（使用 GTIN 码池）</option>
            {EMPTY_GTIN_REASONS.map((r) => (
              <option key={r.id} value={r.id}>
                {r.zh}
              </option>
            ))}
          </select>
        </Field>
      ))}
    </div>
  );
}

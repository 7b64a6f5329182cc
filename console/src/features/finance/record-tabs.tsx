// The two record lists' tab bar (top-ups, withdrawals), kept in the URL's `tab` like any filter.
import { ListTabs } from "../../components/list/list-tabs.tsx";
import type { RecordTab } from "./finance-search-params.ts";

const TAB_LABELS: Record<RecordTab, string> = { charge: "充值", withdraw: "提现" };

export function RecordTabs({ value, onChange, suffix }: { value: RecordTab; onChange: (tab: RecordTab) => void; suffix: string }) {
  return <ListTabs tabs={TAB_LABELS} value={value} onChange={onChange} label="记录类型" testId="finance-tab" suffix={suffix} />;
}

// What the finance centre shows the platform's own account: it has no wallet; top-ups and withdrawals are reviewed in
// /admin/recharge.
import { Link } from "react-router-dom";
import { Card } from "#shared/ui/card.tsx";
import { Empty } from "#shared/ui/empty.tsx";

export function HostFinanceNotice() {
  return (
    <Card data-testid="finance-host-notice">
      <Empty
        text="平台账号没有钱包"
        description="各公司的充值与提现申请在“管理员 › 充值审核”中处理。"
        action={
          <Link className="text-primary text-sm hover:underline" to="/admin/recharge">
            前往充值审核
          </Link>
        }
      />
    </Card>
  );
}

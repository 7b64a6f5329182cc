// /profile (from the header's user menu): tab 基本资料 shows the account and edits my-profile; tab 修改密码 changes the
// password. ?tab=password in the URL selects the second tab (the menu's 修改密码 opens it that way).
import { useSearchParams } from "react-router-dom";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#shared/ui/tabs.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { AccountSummary } from "./account-summary.tsx";
import { ChangePasswordForm } from "./change-password-form.tsx";
import { ProfileEditor } from "./profile-form.tsx";

type ProfileTab = "basic" | "password";

export default function ProfilePage(_props: PageProps) {
  const [params, setParams] = useSearchParams();
  const tab: ProfileTab = params.get("tab") === "password" ? "password" : "basic";

  function onTabChange(value: string) {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if ((value as ProfileTab) === "password") next.set("tab", "password");
        else next.delete("tab");
        return next;
      },
      { replace: true },
    );
  }

  return (
    <Tabs value={tab} onValueChange={onTabChange} className="gap-4" data-testid="profile-page">
      <TabsList>
        <TabsTrigger value="basic" data-testid="profile-tab-basic">
          基本资料
        </TabsTrigger>
        <TabsTrigger value="password" data-testid="profile-tab-password">
          修改密码
        </TabsTrigger>
      </TabsList>
      <TabsContent value="basic">
        <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
          <AccountSummary />
          <ProfileEditor />
        </div>
      </TabsContent>
      <TabsContent value="password">
        <ChangePasswordForm />
      </TabsContent>
    </Tabs>
  );
}

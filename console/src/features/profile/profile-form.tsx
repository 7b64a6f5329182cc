// Tab 基本资料's form: name, surname, email and phone of my-profile. The concurrency stamp read with the profile is sent
// back; a 409 means the profile changed elsewhere meanwhile: the screen says so and shows the current one.
import type { z } from "zod";
import type { Profile } from "#shared/contract/account.ts";
import { Button } from "#shared/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Label } from "#shared/ui/label.tsx";
import { Loading } from "#shared/ui/spinner.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { isConflict } from "../../lib/query-client.ts";
import { useMyProfile } from "./api/get-profile.ts";
import { useUpdateMyProfile } from "./api/update-profile.ts";
import { profileForm, profileValuesOf } from "./schemas.ts";

export function ProfileEditor() {
  const profile = useMyProfile();
  return (
    <Card data-testid="profile-editor">
      <CardHeader>
        <CardTitle>编辑资料</CardTitle>
        <CardDescription>留空的项目将被清除。</CardDescription>
      </CardHeader>
      <CardContent>
        {profile.data ? (
          // A new stamp (saved here, or reloaded after a conflict) starts the form again from that profile.
          <ProfileForm key={profile.data.concurrencyStamp} profile={profile.data} onConflict={() => void profile.refetch()} />
        ) : (
          <Loading />
        )}
      </CardContent>
    </Card>
  );
}

function ProfileForm({ profile, onConflict }: { profile: Profile; onConflict: () => void }) {
  const form = useZodForm(profileForm, { defaultValues: profileValuesOf(profile) });
  const update = useUpdateMyProfile();

  function onSubmit(values: z.output<typeof profileForm>) {
    update.mutate(
      { ...values, concurrencyStamp: profile.concurrencyStamp },
      {
        onSuccess: () => toast.success("个人资料已保存"),
        onError: (error) => {
          if (!isConflict(error)) return;
          toast.warning("资料已在其他地方被修改，已重新加载最新资料，请确认后再保存");
          onConflict();
        },
      },
    );
  }

  return (
    <Form form={form} onSubmit={onSubmit} data-testid="profile-form">
      <div className="flex flex-col gap-2">
        <Label htmlFor="profile-username-readonly">用户名</Label>
        <Input id="profile-username-readonly" value={profile.userName} disabled readOnly />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          form={form}
          name="surname"
          label="姓"
          render={(field) => <Input {...field} maxLength={64} autoComplete="family-name" data-testid="profile-surname" />}
        />
        <FormField
          form={form}
          name="name"
          label="名"
          render={(field) => <Input {...field} maxLength={64} autoComplete="given-name" data-testid="profile-name" />}
        />
      </div>
      <FormField
        form={form}
        name="email"
        label="邮箱"
        description="用于找回密码"
        render={(field) => <Input {...field} type="email" maxLength={256} autoComplete="email" data-testid="profile-email-input" />}
      />
      <FormField
        form={form}
        name="phoneNumber"
        label="手机号"
        render={(field) => <Input {...field} inputMode="tel" maxLength={32} autoComplete="tel" data-testid="profile-phone-input" />}
      />
      <div className="flex justify-end gap-2">
        <Button
          variant="outline"
          disabled={!form.formState.isDirty || update.isPending}
          onClick={() => form.reset(profileValuesOf(profile))}
        >
          重置
        </Button>
        <Button type="submit" loading={update.isPending} data-testid="profile-submit">
          保存
        </Button>
      </div>
    </Form>
  );
}

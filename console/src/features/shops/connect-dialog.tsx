// 绑定店铺 / 重新授权: the sites to connect and, for a main account, the account (salesperson) the shops will belong
// to; then GetAuthUrl and Mercado Libre's authorization page (meli-auth.ts). A local seller's account is one site; a
// global (CBT) seller connects one shop per marketplace it sells on, limited to the sites ticked here.
import { useEffect, useRef } from "react";
import { z } from "zod";
import { siteNumber } from "#shared/contract/meli.ts";
import { Button } from "#shared/ui/button.tsx";
import { Checkbox } from "#shared/ui/checkbox.tsx";
import { cn } from "#shared/ui/cn.ts";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Form, FormField, useZodForm } from "#shared/ui/form.tsx";
import { FormSelect } from "../../components/form-select.tsx";
import type { UserOption } from "../../components/list/owner-filter.ts";
import { SITE_NUMBERS, siteCodeHint, siteName } from "./names.ts";

const connectForm = z.object({
  sites: z.array(siteNumber).min(1, "请至少选择一个站点"),
  uid: z.string(),
});

/** What the dialog is for: a new shop, or authorizing an existing one again (its site and owner chosen already). */
export type ConnectTarget = { kind: "new" } | { kind: "reauthorize"; shopName: string; sites: number[]; ownerId: string };

export type ConnectDialogProps = {
  target: ConnectTarget | null;
  /** Owner choices (main accounts: itself and its sub-accounts); null for a sub-account, whose shops are its own. */
  users: UserOption[] | null;
  /** The main account's own id, the default owner. */
  selfId: string | null;
  pending: boolean;
  onSubmit: (v: { sites: number[]; uid?: string }) => void;
  onClose: () => void;
};

const siteHints: Record<number, string> = {
  5: "全球卖家（Global Selling）：按其开通的站点各绑定一个店铺",
};

export function ConnectDialog({ target, users, selfId, pending, onSubmit, onClose }: ConnectDialogProps) {
  const form = useZodForm(connectForm, { defaultValues: { sites: [], uid: "" } });
  // The owner list is rebuilt on every render of the page; only a new target may reset what the user has chosen.
  const defaultOwner = useRef("");
  defaultOwner.current = selfId ?? users?.[0]?.id ?? "";
  useEffect(() => {
    if (!target) return;
    form.reset(target.kind === "reauthorize" ? { sites: target.sites, uid: target.ownerId } : { sites: [], uid: defaultOwner.current });
  }, [target, form]);

  const again = target?.kind === "reauthorize";
  return (
    <Dialog open={!!target} onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="sm:max-w-xl" data-testid="shops-connect-dialog">
        <DialogHeader>
          <DialogTitle>{again ? `重新授权店铺「${target.shopName}」` : "绑定美客多店铺"}</DialogTitle>
          <DialogDescription>
            {again
              ? "授权已失效的店铺需要重新授权：请在美客多授权页面登录该店铺原来的美客多账号并同意授权，店铺的设置会保留。"
              : "选择要绑定的站点后，将打开美客多授权页面；登录美客多卖家账号并同意授权后，店铺会出现在列表中。"}
          </DialogDescription>
        </DialogHeader>
        <Form form={form} id="shops-connect-form" onSubmit={(v) => onSubmit({ sites: v.sites, ...(users && v.uid ? { uid: v.uid } : {}) })}>
          <FormField
            form={form}
            name="sites"
            label="站点"
            description="本地卖家账号只属于一个站点；跨境（CBT）全球卖家可勾选要绑定的多个站点。"
            render={(f) => (
              <div id={f.id} role="group" aria-label="站点" aria-describedby={f["aria-describedby"]} className="grid gap-2 sm:grid-cols-2">
                {SITE_NUMBERS.map((site) => {
                  const checked = f.value.includes(site);
                  return (
                    <label
                      key={site}
                      className={cn(
                        "flex cursor-pointer items-start gap-2.5 rounded-md border px-3 py-2.5 text-sm transition-colors",
                        checked ? "border-primary bg-primary/5" : "hover:bg-muted/50",
                        site === 5 && "sm:col-span-2",
                      )}
                      data-testid={`shops-connect-site-${site}`}
                    >
                      <Checkbox
                        className="mt-0.5"
                        checked={checked}
                        aria-invalid={f["aria-invalid"]}
                        onCheckedChange={(on) =>
                          f.onChange(on === true ? [...f.value, site].sort((a, b) => a - b) : f.value.filter((s) => s !== site))
                        }
                      />
                      <span className="flex flex-col gap-0.5">
                        <span className="font-medium">
                          {siteName(site)} <span className="text-muted-foreground font-normal">{siteCodeHint(site)}</span>
                        </span>
                        {siteHints[site] ? <span className="text-muted-foreground text-xs">{siteHints[site]}</span> : null}
                      </span>
                    </label>
                  );
                })}
              </div>
            )}
          />
          {users && !again ? (
            <FormField
              form={form}
              name="uid"
              label="所属业务员"
              required
              description="店铺绑定后归该账号管理，之后也可以重新分配。"
              render={(f) => (
                <FormSelect
                  field={f}
                  choices={users.map((u) => ({ value: u.id, label: u.name }))}
                  placeholder="选择账号"
                  testId="shops-connect-owner"
                  className="w-full"
                />
              )}
            />
          ) : null}
        </Form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            取消
          </Button>
          <Button type="submit" form="shops-connect-form" loading={pending} data-testid="shops-connect-submit">
            前往美客多授权
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

// Edits one setting the product reads, with an input that fits its kind (a switch's 开启/关闭, a choice's options,
// a number, a list of company names, JSON for structured ones) and the registry's own rule checked before sending
// (the server checks it again). 恢复默认 removes the value so the default applies.
import { useEffect, useState } from "react";
import { settingValueError, type KnownSetting } from "#shared/contract/setting-registry.ts";
import { Button } from "#shared/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#shared/ui/dialog.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Textarea } from "#shared/ui/textarea.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { AllSelect } from "../../components/list/all-select.tsx";
import { useSetSettingValue } from "./api/known-settings.ts";

const BOOLEAN_OPTIONS = [
  { value: "true", label: "开启" },
  { value: "false", label: "关闭" },
];

function ValueInput({ setting, value, onChange }: { setting: KnownSetting; value: string; onChange: (v: string) => void }) {
  const common = { id: "known-setting-value", "data-testid": "known-setting-value" };
  switch (setting.kind) {
    case "boolean":
    case "choice":
      return (
        <AllSelect
          value={value.trim().toLowerCase()}
          onChange={onChange}
          all="默认"
          label={setting.name}
          options={setting.kind === "boolean" ? BOOLEAN_OPTIONS : (setting.options ?? [])}
          className="w-72"
          testId="known-setting-value"
        />
      );
    case "faq":
    case "receivingAccounts":
      return (
        <Textarea
          {...common}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          rows={10}
          className="font-mono text-xs"
          spellCheck={false}
        />
      );
    default:
      return (
        <Input
          {...common}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          type={setting.kind === "secret" ? "password" : "text"}
          inputMode={setting.kind === "integer" || setting.kind === "percent" ? "decimal" : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder={setting.defaultText}
          className="font-mono"
        />
      );
  }
}

/** `setting`: the one being edited; the dialog is open while it is set. */
export function KnownSettingDialog({ setting, onClose }: { setting: KnownSetting | null; onClose: () => void }) {
  const save = useSetSettingValue();
  const [value, setValue] = useState("");
  useEffect(() => setValue(setting?.value ?? ""), [setting]);
  if (!setting) return null;
  const problem = settingValueError(setting.key, value);

  function send(next: string | null, done: string) {
    save.mutate({ key: setting!.key, value: next }, { onSuccess: () => (toast.success(done), onClose()) });
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !save.isPending && onClose()}>
      <DialogContent className="sm:max-w-2xl" data-testid="known-setting-dialog">
        <DialogHeader>
          <DialogTitle>
            {setting.name} <span className="text-muted-foreground font-mono text-sm font-normal">{setting.key}</span>
          </DialogTitle>
          <DialogDescription>{setting.description}</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-2 text-sm">
          <label htmlFor="known-setting-value" className="font-medium">
            值（{setting.kindName}）
          </label>
          <ValueInput setting={setting} value={value} onChange={setValue} />
          <p className="text-muted-foreground text-xs">
            默认值：{setting.defaultText}
            {setting.editedAt ? `；也可在${setting.editedAt}编辑` : ""}
          </p>
          {problem ? (
            <p className="text-destructive text-xs" role="alert" data-testid="known-setting-problem">
              {problem}
            </p>
          ) : null}
        </div>
        <DialogFooter>
          <Button
            variant="outline"
            disabled={save.isPending || setting.value === null}
            onClick={() => send(null, `「${setting.name}」已恢复默认`)}
            data-testid="known-setting-reset"
          >
            恢复默认
          </Button>
          <Button variant="outline" disabled={save.isPending} onClick={onClose}>
            取消
          </Button>
          <Button
            loading={save.isPending}
            disabled={!!problem}
            onClick={() => send(value, `「${setting.name}」已保存`)}
            data-testid="known-setting-save"
          >
            保存
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

import * as AlertDialogPrimitive from "@radix-ui/react-alert-dialog";
import { CircleAlert, Info, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { create } from "zustand";
import { buttonVariants } from "./button.tsx";
import { cn } from "./cn.ts";

type ConfirmTone = "warning" | "danger" | "info";

export type ConfirmOptions = {
  title: ReactNode;
  description?: ReactNode;
  /** Defaults to 确定. */
  confirmText?: string;
  /** Defaults to 取消. */
  cancelText?: string;
  /** Icon and confirm-button colour; defaults to "warning". */
  tone?: ConfirmTone;
};

type ConfirmRequest = ConfirmOptions & { id: number; resolve: (ok: boolean) => void };

// Requests wait in line: a second confirm() while one is open is shown after the first is answered.
export const useConfirmStore = create<{ queue: ConfirmRequest[] }>(() => ({ queue: [] }));

let seq = 0;

/** Opens the confirm dialog (needs <ConfirmHost /> mounted); resolves true for 确定, false for 取消/Esc/overlay. */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const request: ConfirmRequest = { ...options, id: ++seq, resolve };
    useConfirmStore.setState((s) => ({ queue: [...s.queue, request] }));
  });
}

// Settles once: radix also reports the close that follows a button press, which must not answer a second time.
function settle(id: number, ok: boolean) {
  const request = useConfirmStore.getState().queue.find((r) => r.id === id);
  if (!request) return;
  useConfirmStore.setState((s) => ({ queue: s.queue.filter((r) => r.id !== id) }));
  request.resolve(ok);
}

const tones: Record<ConfirmTone, { icon: ReactNode; ring: string; button: string }> = {
  warning: {
    icon: <TriangleAlert aria-hidden="true" className="size-6" />,
    ring: "bg-warning/10 text-warning",
    button: buttonVariants({ variant: "default" }),
  },
  danger: {
    icon: <CircleAlert aria-hidden="true" className="size-6" />,
    ring: "bg-destructive/10 text-destructive",
    button: buttonVariants({ variant: "destructive" }),
  },
  info: {
    icon: <Info aria-hidden="true" className="size-6" />,
    ring: "bg-primary/10 text-primary",
    button: buttonVariants({ variant: "default" }),
  },
};

/** Mount once at the app root; it shows the dialogs that confirm() asks for. */
export function ConfirmHost() {
  const current = useConfirmStore((s) => s.queue[0]);
  const tone = tones[current?.tone ?? "warning"];
  return (
    <AlertDialogPrimitive.Root
      open={current !== undefined}
      onOpenChange={(open) => {
        if (!open && current) settle(current.id, false);
      }}
    >
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className="fixed inset-0 z-[52] bg-black/50" />
        {current && (
          <AlertDialogPrimitive.Content
            key={current.id}
            data-slot="confirm-dialog"
            data-tone={current.tone ?? "warning"}
            // Without a description radix would point aria-describedby at nothing and warn.
            {...(current.description ? {} : { "aria-describedby": undefined })}
            className="bg-background fixed top-1/2 left-1/2 z-[53] flex w-full max-w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col items-center gap-4 rounded-lg border p-6 text-center shadow-lg outline-none sm:max-w-sm"
          >
            <div data-slot="confirm-icon" className={cn("flex size-12 items-center justify-center rounded-full", tone.ring)}>
              {tone.icon}
            </div>
            <div className="flex flex-col gap-2">
              <AlertDialogPrimitive.Title className="text-lg leading-none font-semibold">{current.title}</AlertDialogPrimitive.Title>
              {current.description && (
                <AlertDialogPrimitive.Description className="text-muted-foreground text-sm">
                  {current.description}
                </AlertDialogPrimitive.Description>
              )}
            </div>
            <div className="flex w-full justify-center gap-3">
              <AlertDialogPrimitive.Cancel
                className={cn(buttonVariants({ variant: "outline" }), "min-w-20")}
                onClick={() => settle(current.id, false)}
              >
                {current.cancelText ?? "取消"}
              </AlertDialogPrimitive.Cancel>
              <AlertDialogPrimitive.Action className={cn(tone.button, "min-w-20")} onClick={() => settle(current.id, true)}>
                {current.confirmText ?? "确定"}
              </AlertDialogPrimitive.Action>
            </div>
          </AlertDialogPrimitive.Content>
        )}
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}

import { CircleCheck, CircleX, Info, TriangleAlert, X } from "lucide-react";
import type { ReactNode } from "react";
import { create } from "zustand";
import { cn } from "./cn.ts";
import { Spinner } from "./spinner.tsx";

type ToastType = "success" | "error" | "info" | "warning" | "loading";

type ToastItem = {
  id: string;
  type: ToastType;
  message: string;
};

/** How long a notice stays; loading notices stay until dismissed or updated. */
export const TOAST_DURATION_MS = 3000;

type ToastState = { toasts: ToastItem[] };

/** The notices on screen, oldest first. Exported for tests; screens use `toast`. */
export const useToastStore = create<ToastState>(() => ({ toasts: [] }));

const timers = new Map<string, ReturnType<typeof setTimeout>>();
let seq = 0;

function clearTimer(id: string) {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}

function schedule(id: string, type: ToastType, duration: number | undefined) {
  clearTimer(id);
  if (type === "loading") return;
  const ms = duration ?? TOAST_DURATION_MS;
  if (!Number.isFinite(ms) || ms <= 0) return;
  timers.set(
    id,
    setTimeout(() => dismiss(id), ms),
  );
}

export type ToastOptions = {
  /** Milliseconds before it goes; Infinity keeps it. Defaults to 3000. */
  duration?: number;
};

function show(type: ToastType, message: string, options?: ToastOptions): string {
  // Parallel requests failing the same way (401, 429...) each report it; the user must see it once. A visible twin
  // only has its timer restarted. Loading notices are not merged: each belongs to its own pending operation.
  if (type !== "loading") {
    const twin = useToastStore.getState().toasts.find((t) => t.type === type && t.message === message);
    if (twin) {
      schedule(twin.id, type, options?.duration);
      return twin.id;
    }
  }
  const id = `toast-${++seq}`;
  useToastStore.setState((s) => ({ toasts: [...s.toasts, { id, type, message }] }));
  schedule(id, type, options?.duration);
  return id;
}

/** Removes one notice, or every notice when called without an id. */
function dismiss(id?: string): void {
  if (id === undefined) {
    for (const key of [...timers.keys()]) clearTimer(key);
    useToastStore.setState({ toasts: [] });
    return;
  }
  clearTimer(id);
  useToastStore.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
}

/** Turns a notice into another (typically loading → success/error); a non-loading result then times out as usual. */
function update(id: string, patch: Partial<Omit<ToastItem, "id">>, options?: ToastOptions): void {
  const current = useToastStore.getState().toasts.find((t) => t.id === id);
  if (!current) return;
  const next = { ...current, ...patch };
  useToastStore.setState((s) => ({ toasts: s.toasts.map((t) => (t.id === id ? next : t)) }));
  schedule(id, next.type, options?.duration);
}

export const toast = {
  success: (message: string, options?: ToastOptions) => show("success", message, options),
  error: (message: string, options?: ToastOptions) => show("error", message, options),
  info: (message: string, options?: ToastOptions) => show("info", message, options),
  warning: (message: string, options?: ToastOptions) => show("warning", message, options),
  loading: (message: string, options?: ToastOptions) => show("loading", message, options),
  show,
  dismiss,
  update,
};

const icons: Record<ToastType, ReactNode> = {
  success: <CircleCheck aria-hidden="true" className="text-success size-4 shrink-0" />,
  error: <CircleX aria-hidden="true" className="text-destructive size-4 shrink-0" />,
  info: <Info aria-hidden="true" className="text-info size-4 shrink-0" />,
  warning: <TriangleAlert aria-hidden="true" className="text-warning size-4 shrink-0" />,
  loading: <Spinner className="text-primary shrink-0" />,
};

/** Mount once at the app root; renders the notices top-centre. */
export function Toaster({ className }: { className?: string }) {
  const toasts = useToastStore((s) => s.toasts);
  return (
    <div
      data-slot="toaster"
      aria-label="通知"
      className={cn("pointer-events-none fixed inset-x-0 top-4 z-[100] flex flex-col items-center gap-2 px-4", className)}
    >
      {toasts.map((t) => (
        <div
          key={t.id}
          role="status"
          aria-live={t.type === "error" ? "assertive" : "polite"}
          aria-atomic="true"
          data-toast-type={t.type}
          data-toast-id={t.id}
          className={cn(
            "bg-popover text-popover-foreground pointer-events-auto flex w-fit max-w-[min(28rem,100%)] items-center gap-2 rounded-md border px-4 py-2.5 text-sm shadow-lg",
            t.type === "error" && "border-destructive/30",
            t.type === "success" && "border-success/30",
            t.type === "warning" && "border-warning/30",
          )}
        >
          {icons[t.type]}
          {/* The close button is labelled by aria-label, not text, so a toast's textContent is just its message. */}
          <span className="break-words">{t.message}</span>
          {t.type !== "loading" && (
            <button
              type="button"
              aria-label="关闭"
              onClick={() => dismiss(t.id)}
              className="text-muted-foreground hover:text-foreground -mr-1 ml-1 cursor-pointer rounded-sm p-0.5"
            >
              <X aria-hidden="true" className="size-3.5" />
            </button>
          )}
        </div>
      ))}
    </div>
  );
}

import { useEffect, useRef, useState } from "react";
import { Button, type ButtonProps } from "./button.tsx";
import { cn } from "./cn.ts";

/** Spec: seconds before a verification code can be requested again. */
export const RESEND_COUNTDOWN_SECONDS = 60;

export function countdownLabel(remaining: number): string {
  return remaining > 0 ? `${remaining}s 后重新获取` : "获取验证码";
}

export type CountdownButtonProps = Omit<ButtonProps, "onClick" | "children" | "loading" | "asChild"> & {
  /** Sends the code; the countdown starts only once it resolves (a rejected send can be retried at once). */
  onSend: () => Promise<void>;
  seconds?: number;
};

/** The resend-verification-code button: 获取验证码 → "{n}s 后重新获取" … → 获取验证码. */
export function CountdownButton({
  onSend,
  seconds = RESEND_COUNTDOWN_SECONDS,
  disabled,
  variant = "outline",
  className,
  ...props
}: CountdownButtonProps) {
  const [remaining, setRemaining] = useState(0);
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Counts against a deadline rather than decrementing per tick, so a throttled background tab still ends on time.
  useEffect(() => {
    if (endsAt === null) return;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
      setRemaining(left);
      if (left === 0) setEndsAt(null);
    }, 250);
    return () => clearInterval(timer);
  }, [endsAt]);

  async function handleClick() {
    if (sending || remaining > 0) return;
    setSending(true);
    try {
      await onSend();
      if (mounted.current && seconds > 0) {
        setRemaining(seconds);
        setEndsAt(Date.now() + seconds * 1000);
      }
    } catch {
      // The caller reports the failure (e.g. a toast); no countdown, so the user can try again.
    } finally {
      if (mounted.current) setSending(false);
    }
  }

  return (
    <Button
      {...props}
      type="button"
      variant={variant}
      data-remaining={remaining}
      disabled={disabled || remaining > 0}
      loading={sending}
      onClick={handleClick}
      className={cn("tabular-nums", className)}
    >
      {countdownLabel(remaining)}
    </Button>
  );
}

// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CountdownButton, RESEND_COUNTDOWN_SECONDS, countdownLabel } from "./countdown-button.tsx";

afterEach(cleanup);

describe("countdownLabel", () => {
  it("reads {n}s 后重新获取 while counting and 获取验证码 otherwise", () => {
    expect(RESEND_COUNTDOWN_SECONDS).toBe(60);
    expect(countdownLabel(60)).toBe("60s 后重新获取");
    expect(countdownLabel(1)).toBe("1s 后重新获取");
    expect(countdownLabel(0)).toBe("获取验证码");
    expect(countdownLabel(-3)).toBe("获取验证码");
  });
});

describe("CountdownButton", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const button = () => screen.getByRole("button");
  const tick = async (ms: number) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };

  it("counts down from 60 after a successful send, disabled, then re-enables", async () => {
    const onSend = vi.fn(() => Promise.resolve());
    render(<CountdownButton onSend={onSend} />);
    expect(button().textContent).toBe("获取验证码");
    expect((button() as HTMLButtonElement).disabled).toBe(false);

    await act(async () => {
      fireEvent.click(button());
    });
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(button().textContent).toBe("60s 后重新获取");
    expect((button() as HTMLButtonElement).disabled).toBe(true);

    await tick(1000);
    expect(button().textContent).toBe("59s 后重新获取");
    await tick(1000);
    expect(button().textContent).toBe("58s 后重新获取");

    // Clicking while counting does nothing.
    fireEvent.click(button());
    expect(onSend).toHaveBeenCalledTimes(1);

    await tick(57_000);
    expect(button().textContent).toBe("1s 后重新获取");
    await tick(1000);
    expect(button().textContent).toBe("获取验证码");
    expect((button() as HTMLButtonElement).disabled).toBe(false);
    await tick(5000);
    expect(button().textContent).toBe("获取验证码");
  });

  it("honours a custom length", async () => {
    render(<CountdownButton onSend={() => Promise.resolve()} seconds={3} />);
    await act(async () => {
      fireEvent.click(button());
    });
    expect(button().textContent).toBe("3s 后重新获取");
    await tick(3000);
    expect(button().textContent).toBe("获取验证码");
  });

  it("a rejected send starts no countdown and can be retried at once", async () => {
    const onSend = vi.fn(() => Promise.reject(new Error("发送失败")));
    render(<CountdownButton onSend={onSend} />);
    await act(async () => {
      fireEvent.click(button());
    });
    expect(button().textContent).toBe("获取验证码");
    expect((button() as HTMLButtonElement).disabled).toBe(false);
    await tick(2000);
    expect(button().textContent).toBe("获取验证码");
    await act(async () => {
      fireEvent.click(button());
    });
    expect(onSend).toHaveBeenCalledTimes(2);
  });

  it("is busy (disabled) while the send is pending, so it cannot be sent twice", async () => {
    let finish!: () => void;
    const onSend = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<CountdownButton onSend={onSend} />);
    await act(async () => {
      fireEvent.click(button());
    });
    expect((button() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(button());
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(button().textContent).toBe("获取验证码");
    await act(async () => finish());
    expect(button().textContent).toBe("60s 后重新获取");
  });
});

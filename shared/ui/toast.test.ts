// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TOAST_DURATION_MS, Toaster, toast, useToastStore } from "./toast.tsx";

const visible = () => useToastStore.getState().toasts;

describe("toast", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    toast.dismiss();
  });
  afterEach(() => {
    toast.dismiss();
    vi.useRealTimers();
  });

  it("adds a notice of each type and returns its id", () => {
    const ids = [toast.success("保存成功"), toast.error("保存失败"), toast.info("提示"), toast.warning("注意"), toast.loading("保存中...")];
    expect(new Set(ids).size).toBe(5);
    expect(visible().map((t) => [t.type, t.message])).toEqual([
      ["success", "保存成功"],
      ["error", "保存失败"],
      ["info", "提示"],
      ["warning", "注意"],
      ["loading", "保存中..."],
    ]);
  });

  it("auto-dismisses after ~3 s but keeps loading notices", () => {
    toast.success("已删除");
    toast.loading("导出中...");
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(visible()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(visible().map((t) => t.type)).toEqual(["loading"]);
    vi.advanceTimersByTime(60_000);
    expect(visible().map((t) => t.type)).toEqual(["loading"]);
  });

  it("shows an identical notice from parallel requests once", () => {
    const a = toast.error("登录已过期，请重新登录");
    const b = toast.error("登录已过期，请重新登录");
    const c = toast.error("登录已过期，请重新登录");
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(visible()).toHaveLength(1);
    // A different message, or the same text as another type, is its own notice.
    toast.error("请求过于频繁");
    toast.warning("登录已过期，请重新登录");
    expect(visible()).toHaveLength(3);
  });

  it("a repeat restarts the timer of the visible twin instead of stacking", () => {
    toast.error("请求过于频繁");
    vi.advanceTimersByTime(2000);
    toast.error("请求过于频繁");
    vi.advanceTimersByTime(2000);
    expect(visible()).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(visible()).toHaveLength(0);
    // Once gone, the same message shows again.
    toast.error("请求过于频繁");
    expect(visible()).toHaveLength(1);
  });

  it("does not merge loading notices (each is its own operation)", () => {
    const a = toast.loading("处理中...");
    const b = toast.loading("处理中...");
    expect(a).not.toBe(b);
    expect(visible()).toHaveLength(2);
  });

  it("update turns a loading notice into a result that then times out", () => {
    const id = toast.loading("保存中...");
    toast.update(id, { type: "success", message: "保存成功" });
    expect(visible()).toEqual([{ id, type: "success", message: "保存成功" }]);
    vi.advanceTimersByTime(TOAST_DURATION_MS);
    expect(visible()).toHaveLength(0);
  });

  it("update to loading cancels the pending auto-dismiss", () => {
    const id = toast.info("排队中");
    toast.update(id, { type: "loading", message: "处理中..." });
    vi.advanceTimersByTime(TOAST_DURATION_MS * 3);
    expect(visible()).toEqual([{ id, type: "loading", message: "处理中..." }]);
  });

  it("dismiss removes one notice by id, or all without an id; unknown ids are ignored", () => {
    const a = toast.info("一");
    toast.info("二");
    toast.dismiss(a);
    expect(visible().map((t) => t.message)).toEqual(["二"]);
    toast.dismiss("nope");
    toast.update("nope", { message: "x" });
    expect(visible().map((t) => t.message)).toEqual(["二"]);
    toast.dismiss();
    expect(visible()).toHaveLength(0);
  });

  it("honours a custom duration", () => {
    toast.success("短", { duration: 500 });
    toast.success("常驻", { duration: Infinity });
    vi.advanceTimersByTime(500);
    expect(visible().map((t) => t.message)).toEqual(["常驻"]);
  });
});

describe("<Toaster />", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    toast.dismiss();
  });
  afterEach(() => {
    cleanup();
    toast.dismiss();
    vi.useRealTimers();
  });

  it("renders each notice as a status with data-toast-type and just the message as text", () => {
    render(createElement(Toaster));
    act(() => {
      toast.success("保存成功");
      toast.error("网络错误");
      toast.error("网络错误");
    });
    const items = screen.getAllByRole("status");
    expect(items.map((el) => [el.getAttribute("data-toast-type"), el.textContent])).toEqual([
      ["success", "保存成功"],
      ["error", "网络错误"],
    ]);
    expect(items.every((el) => el.getAttribute("aria-live"))).toBe(true);
  });

  it("disappears after the timeout, and the close button removes a notice at once", () => {
    render(createElement(Toaster));
    act(() => {
      toast.info("已复制");
      toast.loading("上传中...");
    });
    expect(screen.getAllByRole("status")).toHaveLength(2);
    act(() => {
      vi.advanceTimersByTime(TOAST_DURATION_MS);
    });
    expect(screen.getAllByRole("status").map((el) => el.getAttribute("data-toast-type"))).toEqual(["loading"]);
    act(() => {
      toast.warning("余额不足");
    });
    fireEvent.click(screen.getByRole("button", { name: "关闭" }));
    expect(screen.getAllByRole("status").map((el) => el.getAttribute("data-toast-type"))).toEqual(["loading"]);
  });
});

// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ConfirmHost, confirm, useConfirmStore } from "./confirm.tsx";

afterEach(() => {
  cleanup();
  useConfirmStore.setState({ queue: [] });
});

// Wrapped in an object: an async function returning the promise itself would wait for the answer.
async function ask(options: Parameters<typeof confirm>[0]): Promise<{ result: Promise<boolean> }> {
  let result!: Promise<boolean>;
  await act(async () => {
    result = confirm(options);
  });
  return { result };
}

describe("confirm", () => {
  it("opens a centred alert dialog with an icon, title, description and 取消/确定", async () => {
    render(<ConfirmHost />);
    expect(screen.queryByRole("alertdialog")).toBeNull();
    await ask({ title: "确定删除该用户？", description: "删除后不可恢复", tone: "danger" });
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog.getAttribute("data-tone")).toBe("danger");
    expect(dialog.textContent).toContain("确定删除该用户？");
    expect(dialog.textContent).toContain("删除后不可恢复");
    const icon = dialog.querySelector('[data-slot="confirm-icon"] svg');
    expect(icon).not.toBeNull();
    expect(screen.getByRole("button", { name: "取消" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "确定" })).toBeTruthy();
  });

  it("resolves true on 确定 and closes", async () => {
    render(<ConfirmHost />);
    const { result } = await ask({ title: "确认提交？" });
    await act(async () => {
      fireEvent.click(await screen.findByRole("button", { name: "确定" }));
    });
    await expect(result).resolves.toBe(true);
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("resolves false on 取消", async () => {
    render(<ConfirmHost />);
    const { result } = await ask({ title: "确认提交？" });
    await act(async () => {
      fireEvent.click(await screen.findByRole("button", { name: "取消" }));
    });
    await expect(result).resolves.toBe(false);
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("resolves false on Escape", async () => {
    render(<ConfirmHost />);
    const { result } = await ask({ title: "确认提交？" });
    const dialog = await screen.findByRole("alertdialog");
    await act(async () => {
      fireEvent.keyDown(dialog, { key: "Escape" });
    });
    await expect(result).resolves.toBe(false);
  });

  it("uses custom button texts and a tone-specific icon", async () => {
    render(<ConfirmHost />);
    await ask({ title: "提示", confirmText: "继续", cancelText: "返回", tone: "info" });
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog.getAttribute("data-tone")).toBe("info");
    expect(screen.getByRole("button", { name: "继续" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "返回" })).toBeTruthy();
    expect(dialog.querySelector('[data-slot="confirm-icon"] svg')).not.toBeNull();
  });

  it("defaults to the warning tone", async () => {
    render(<ConfirmHost />);
    await ask({ title: "确定退出登录？" });
    expect((await screen.findByRole("alertdialog")).getAttribute("data-tone")).toBe("warning");
  });

  it("queues a second request and answers each one once", async () => {
    render(<ConfirmHost />);
    const { result: first } = await ask({ title: "第一个" });
    const { result: second } = await ask({ title: "第二个" });
    expect((await screen.findByRole("alertdialog")).textContent).toContain("第一个");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "确定" }));
    });
    await expect(first).resolves.toBe(true);
    expect((await screen.findByRole("alertdialog")).textContent).toContain("第二个");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "取消" }));
    });
    await expect(second).resolves.toBe(false);
    expect(useConfirmStore.getState().queue).toHaveLength(0);
  });
});

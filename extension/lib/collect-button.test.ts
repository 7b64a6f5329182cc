// @vitest-environment happy-dom
// The collect button's states as the seller sees them: a product stored without some of what the page shows is
// orange with the reason, never the plain green success.
import { afterEach, describe, expect, it } from "vitest";
import { mountCollectButton } from "./collect-button.ts";

const parts = (ui: ReturnType<typeof mountCollectButton>) => {
  const button = ui.host.shadowRoot!.querySelector("button")!;
  return { className: button.className, label: button.textContent, note: ui.host.shadowRoot!.querySelector(".note")!.textContent };
};

describe("collect button", () => {
  let ui: ReturnType<typeof mountCollectButton>;
  afterEach(() => ui.remove());

  it("shows a partial collection orange, with what did not come out", () => {
    ui = mountCollectButton(() => {});
    ui.render({ kind: "done", outcome: "collected", message: "已采集", incomplete: "部分字段未采集: 价格、规格" });
    expect(parts(ui)).toEqual({ className: "warn", label: "已采集 · 再次采集", note: "已采集 · 部分字段未采集: 价格、规格" });
    expect(ui.host.dataset.partial).toBe("true");

    ui.render({ kind: "done", outcome: "already", message: "已采集过，已更新" });
    expect(parts(ui)).toEqual({ className: "done", label: "已采集 · 再次采集", note: "已采集过，已更新" });
    expect(ui.host.dataset.partial).toBeUndefined();
  });

  it("warns before the press too, and keeps a refusal's own message", () => {
    ui = mountCollectButton(() => {});
    ui.render({ kind: "ready", collected: false, incomplete: "部分字段未采集: 价格" });
    expect(parts(ui)).toEqual({ className: "", label: "采集到 ERP", note: "部分字段未采集: 价格" });
    ui.render({ kind: "ready", collected: true, incomplete: "部分字段未采集: 价格" });
    expect(parts(ui).className).toBe("warn");
    ui.render({ kind: "done", outcome: "refused", message: "采集失败", incomplete: "部分字段未采集: 价格" });
    expect(parts(ui)).toMatchObject({ className: "warn", note: "采集失败" });
  });
});

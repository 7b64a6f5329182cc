// @vitest-environment happy-dom
// The GTIN pool screen as a seller meets it: the count, codes pasted or imported and checked before sending (only the
// valid ones go, the invalid ones stay listed), and 清空码池 behind a confirmation (main account only). The MeliCode
// calls answer from an in-memory pool standing in for the server.
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfirmHost } from "#shared/ui/confirm.tsx";
import { useToastStore } from "#shared/ui/toast.tsx";
import type { AppRoute } from "#shared/routes/table.ts";
import { api } from "../../lib/feature-api.ts";
import { queryClient } from "../../lib/query-client.ts";
import { useUserStore } from "../../stores/user.ts";
import GtinPage from "./gtin-page.tsx";

const route: AppRoute = { path: "/proudcts/gtin", name: "ProductGtin", page: "products-gtin", meta: { title: "GTIN管理" } };
const toasts = () => useToastStore.getState().toasts.map((t) => [t.type, t.message]);

let pool: Set<string>;
let sent: string[][];
beforeEach(() => {
  pool = new Set(["4006381333931"]);
  sent = [];
  vi.spyOn(api.meliCode, "getCodeCnt").mockImplementation(async () => ({ unused: pool.size, used: 2, total: pool.size + 2 }));
  vi.spyOn(api.meliCode, "setCodes").mockImplementation(async ({ codes }) => {
    sent.push(codes);
    const before = pool.size;
    for (const c of codes) pool.add(c);
    return { added: pool.size - before, ignored: codes.length - (pool.size - before) };
  });
  vi.spyOn(api.meliCode, "clearCode").mockImplementation(async () => {
    const deleted = pool.size;
    pool.clear();
    return { deleted };
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  queryClient.clear();
  useToastStore.setState({ toasts: [] });
});

function renderPage(isMainAccount = true) {
  useUserStore.setState({ isMainAccount });
  return render(
    <QueryClientProvider client={queryClient}>
      <GtinPage route={route} />
      <ConfirmHost />
    </QueryClientProvider>,
  );
}
const text = (id: string) => screen.getByTestId(id).textContent;

describe("GTIN管理", () => {
  it("checks pasted codes, sends only the valid ones, and keeps the invalid ones listed", async () => {
    renderPage();
    await waitFor(() => expect(text("gtin-unused")).toBe("1"));
    expect(text("gtin-used")).toBe("2");
    fireEvent.change(screen.getByTestId("gtin-text"), {
      target: { value: "96385074, 036000291452\n4006381333932 10614141000415\n96385074；12345\n4006381333931" },
    });
    expect(text("gtin-valid-count")).toBe("4");
    expect(text("gtin-invalid-count")).toBe("2");
    expect(text("gtin-invalid")).toContain("4006381333932");
    expect(text("gtin-invalid")).toContain("12345");
    expect(text("gtin-check")).toContain("重复 1 个");
    fireEvent.click(screen.getByTestId("gtin-add"));
    await waitFor(() => expect(text("gtin-unused")).toBe("4"));
    expect(sent).toEqual([["96385074", "036000291452", "10614141000415", "4006381333931"]]);
    expect(toasts()).toEqual([["warning", "已添加 3 个编码，忽略 1 个（已在码池中或已使用），跳过无效 2 个"]]);
    expect((screen.getByTestId("gtin-text") as HTMLTextAreaElement).value).toBe("4006381333932\n12345");
    expect(screen.getByTestId("gtin-add").hasAttribute("disabled")).toBe(true);
  });

  it("reads a csv file in the browser into the box, and refuses a file of another kind", async () => {
    renderPage();
    const input = screen.getByTestId("gtin-file");
    const csv = new File(['"GTIN"\n"7501234567893"\n"7501234567909"\n'], "codes.csv", { type: "text/csv" });
    fireEvent.change(input, { target: { files: [csv] } });
    await waitFor(() => expect(text("gtin-valid-count")).toBe("2"));
    expect(text("gtin-invalid")).toContain("GTIN");
    fireEvent.change(input, { target: { files: [new File(["x"], "codes.xlsx")] } });
    await waitFor(() => expect(toasts()).toEqual([["error", "请选择 txt 或 csv 文件"]]));
    expect(text("gtin-valid-count")).toBe("2");
  });

  it("清空码池 asks first, and clears the unused codes once confirmed", async () => {
    renderPage();
    await waitFor(() => expect(text("gtin-unused")).toBe("1"));
    fireEvent.click(screen.getByTestId("gtin-clear"));
    fireEvent.click(await screen.findByRole("button", { name: "取消" }));
    expect(api.meliCode.clearCode).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("gtin-clear"));
    fireEvent.click(await screen.findByRole("button", { name: "清空" }));
    await waitFor(() => expect(text("gtin-unused")).toBe("0"));
    expect(api.meliCode.clearCode).toHaveBeenCalledTimes(1);
    expect(toasts()).toContainEqual(["success", "已清空 1 个未使用的编码"]);
    expect(screen.getByTestId("gtin-empty").textContent).toContain("码池已空");
  });

  it("a sub-account adds codes but is not offered 清空码池", async () => {
    renderPage(false);
    await waitFor(() => expect(text("gtin-unused")).toBe("1"));
    expect(screen.queryByTestId("gtin-clear")).toBeNull();
    expect(screen.getByTestId("gtin-add")).toBeTruthy();
  });
});

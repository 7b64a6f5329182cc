import { describe, expect, it } from "vitest";
import type { ListingTableRow } from "./listing-columns.tsx";
import { batchEditOf, byPercent, type BatchFields, type ListingTarget } from "./listing-batch-body.ts";

const row = (id: string, price: number | null) => ({ id, price }) as ListingTableRow;
const fields = (f: Partial<BatchFields>): BatchFields => ({ mode: "fixed", value: "", text: "", size: "", ...f });
const ids = (rows: ListingTableRow[], extra: string[] = []): ListingTarget => ({
  kind: "ids",
  ids: [...rows.map((r) => r.id), ...extra],
  rows,
});
const filter: ListingTarget = { kind: "filter", filter: { title: "Taza" }, count: 50, capped: false, rows: [] };

describe("a listing batch's body", () => {
  it("a fixed price for the ticked rows or the filter", () => {
    expect(batchEditOf("price", ids([row("a", 10)]), fields({ value: "199" }))).toEqual({
      edit: "price",
      body: { ids: ["a"], price: 199 },
    });
    expect(batchEditOf("price", filter, fields({ value: "199" }))).toEqual({
      edit: "price",
      body: { filter: { title: "Taza" }, price: 199 },
    });
    expect(batchEditOf("price", filter, fields({ value: "0" }))).toBe("请输入大于0的价格");
  });

  it("a percentage gives each ticked row its own price, and needs every row's price", () => {
    expect(batchEditOf("price", ids([row("a", 100), row("b", 19.99)]), fields({ mode: "ratio", value: "-10" }))).toEqual({
      edit: "price",
      body: {
        ids: ["a", "b"],
        price: 90,
        prices: [
          { id: "a", price: 90 },
          { id: "b", price: 17.99 },
        ],
      },
    });
    // A row ticked on a page not seen, or without a price: nothing is sent rather than leaving it out.
    expect(batchEditOf("price", ids([row("a", 100)], ["unseen"]), fields({ mode: "ratio", value: "5" }))).toBe(
      "按比例调价需要所选刊登都有价格",
    );
    expect(batchEditOf("price", ids([row("a", null)]), fields({ mode: "ratio", value: "5" }))).toBe("按比例调价需要所选刊登都有价格");
    expect(batchEditOf("price", ids([row("a", 100)]), fields({ mode: "ratio", value: "-100" }))).toBe("请输入调整比例（大于 -100%）");
    expect(batchEditOf("price", filter, fields({ mode: "ratio", value: "5" }))).toBe("按比例调价需勾选刊登");
    expect(byPercent(19.99, 15)).toBe(22.99);
  });

  it("checks stock, weight and size, pictures, and the optional minimum", () => {
    const t = ids([row("a", 1)]);
    expect(batchEditOf("stock", t, fields({ value: "1.5" }))).toBe("库存须为 0–99999 的整数");
    expect(batchEditOf("stock", t, fields({ value: "0" }))).toEqual({ edit: "stock", body: { ids: ["a"], stock: 0 } });
    expect(batchEditOf("weight", t, fields({ value: "300", size: "20×15*10" }))).toEqual({
      edit: "weight",
      body: { ids: ["a"], weight: 300, size: "20x15x10" },
    });
    expect(batchEditOf("weight", t, fields({ value: "300", size: "20x15" }))).toBe("尺寸格式为 长x宽x高（整数厘米），如 20x15x10");
    expect(batchEditOf("image", t, fields({ text: "https://x/a.jpg\n https://x/a.jpg\nhttps://x/b.jpg" }))).toEqual({
      edit: "image",
      body: { ids: ["a"], images: ["https://x/a.jpg", "https://x/b.jpg"] },
    });
    expect(batchEditOf("image", t, fields({ text: "ftp://x/a.jpg" }))).toBe("图片链接须以 http:// 或 https:// 开头");
    expect(batchEditOf("meliPrice", t, fields({}))).toEqual({ edit: "meliPrice", body: { ids: ["a"], limitMinPrice: null } });
    expect(batchEditOf("meliPrice", t, fields({ value: "abc" }))).toBe("最低价格式不正确");
    expect(batchEditOf("down", filter, fields({}))).toEqual({ edit: "down", body: { filter: { title: "Taza" } } });
  });
});

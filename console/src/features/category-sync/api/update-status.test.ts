import { describe, expect, it } from "vitest";
import { updateAllCategoryStatusInput } from "#shared/contract/category.ts";
import { allStatusConfirm, statusBody } from "./update-status.ts";

describe("enabling or disabling categories", () => {
  it("sends one category by its id, and the whole site only with an explicit all (issue 29)", () => {
    expect(statusBody({ site: 1, enable: false, cateId: "MLM1055" })).toEqual({ enable: false, cateIds: ["MLM1055"] });
    expect(statusBody({ site: 1, enable: false, all: true })).toEqual({ enable: false, all: true });
    // What the server takes: the two bodies pass, a body without ids and without all is refused.
    expect(updateAllCategoryStatusInput.safeParse(statusBody({ site: 1, enable: true, all: true })).success).toBe(true);
    expect(updateAllCategoryStatusInput.safeParse({ enable: false }).success).toBe(false);
  });

  it("asks before the whole site changes, naming the site; disabling is the dangerous one", () => {
    const off = allStatusConfirm("墨西哥（MLM）", false);
    expect(off).toMatchObject({ title: "确认停用墨西哥（MLM）的全部类目吗？", confirmText: "全部停用", tone: "danger" });
    expect(allStatusConfirm("墨西哥（MLM）", true)).toMatchObject({ confirmText: "全部启用", tone: "warning" });
  });
});

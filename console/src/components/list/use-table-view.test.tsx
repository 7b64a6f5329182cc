// @vitest-environment happy-dom
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UserInfo } from "#shared/contract/users.ts";
import { useUserStore } from "../../stores/user.ts";
import { tableViewKey, useTableView } from "./use-table-view.ts";

const user = (id: string): UserInfo => ({
  id,
  userName: id,
  name: null,
  email: null,
  tenantId: null,
  tenantName: "demo",
  isMainAccount: true,
  isHost: false,
  roleList: [],
  isShowPageCrwal: false,
  limitMeliAccount: null,
  collectCount: null,
  productCount: null,
});

beforeEach(() => {
  localStorage.clear();
  useUserStore.getState().setUserInfo(user("u1"));
});
afterEach(cleanup);

describe("useTableView", () => {
  it("starts from the defaults, keeps a change for the same user across mounts, and gives another user their own", () => {
    const first = renderHook(() => useTableView("products", { density: "compact" }));
    expect(first.result.current[0]).toEqual({ density: "compact" });
    act(() => first.result.current[1]({ density: "comfortable", hidden: ["weight"] }));
    expect(first.result.current[0]).toEqual({ density: "comfortable", hidden: ["weight"] });
    expect(JSON.parse(localStorage.getItem(tableViewKey("u1", "products"))!)).toEqual({ density: "comfortable", hidden: ["weight"] });
    first.unmount();

    const again = renderHook(() => useTableView("products", { density: "compact" }));
    expect(again.result.current[0]).toEqual({ density: "comfortable", hidden: ["weight"] });
    act(() => useUserStore.getState().setUserInfo(user("u2")));
    expect(again.result.current[0]).toEqual({ density: "compact" });
  });

  it("falls back to the defaults on a broken stored value", () => {
    localStorage.setItem(tableViewKey("u1", "products"), "{not json");
    const { result } = renderHook(() => useTableView("products", { density: "compact" }));
    expect(result.current[0]).toEqual({ density: "compact" });
  });
});

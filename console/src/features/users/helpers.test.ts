// Pure helpers of the sub-account screen: display formats, the URL state of the list and the task state mapping.
import { describe, expect, it } from "vitest";
import { TaskStatus } from "#shared/contract/enums.ts";
import { formatLimit, lastDays } from "./format.ts";
import { createSubUserForm, editSubUserForm, editValuesOf, resetPasswordForm } from "./schemas.ts";
import { readListState, writeListState } from "../../components/list/use-list-url-state.ts";
import { readStatsRange, readTab, subUserListSchema, toSubUsersQuery } from "./search-params.ts";
import { isTaskFinished, taskState, taskStateLabel } from "./task-status.ts";

describe("format", () => {
  it("shows a null limit as 不限", () => {
    expect(formatLimit(null)).toBe("不限");
    expect(formatLimit(1200)).toBe("1,200");
    expect(formatLimit(0)).toBe("0");
  });
  it("computes the last n days including today", () => {
    expect(lastDays(7, new Date(2024, 0, 3))).toEqual({ start: "2023-12-28", end: "2024-01-03" });
  });
});

describe("list URL state", () => {
  const read = (qs: string) => readListState(subUserListSchema, new URLSearchParams(qs));
  it("reads defaults and falls back on broken values", () => {
    expect(read("")).toEqual({ q: "", active: "all", page: 1, size: 10 });
    expect(read("q=bob&active=inactive&page=3&size=20")).toEqual({ q: "bob", active: "inactive", page: 3, size: 20 });
    expect(read("active=x&page=-1&size=7")).toEqual({ q: "", active: "all", page: 1, size: 10 });
  });
  it("writes only what differs from the defaults and keeps other params", () => {
    const next = writeListState(subUserListSchema, new URLSearchParams("tab=stats&page=4"), {
      q: " a ",
      active: "active",
      page: 1,
      size: 10,
    });
    expect(next.toString()).toBe("tab=stats&q=a&active=active");
  });
  it("builds the GetSubUsers query", () => {
    expect(toSubUsersQuery({ q: "", active: "all", page: 1, size: 10 })).toEqual({ SkipCount: 0, MaxResultCount: 10 });
    expect(toSubUsersQuery({ q: " x ", active: "inactive", page: 3, size: 20 })).toEqual({
      Search: "x",
      IsActive: false,
      SkipCount: 40,
      MaxResultCount: 20,
    });
  });
  it("reads the tab and the stats range", () => {
    expect(readTab(new URLSearchParams("tab=stats"))).toBe("stats");
    expect(readTab(new URLSearchParams("tab=zzz"))).toBe("list");
    const fallback = { start: "2024-01-01", end: "2024-01-31" };
    expect(readStatsRange(new URLSearchParams(""), fallback)).toBe(fallback);
    expect(readStatsRange(new URLSearchParams("from=&to="), fallback)).toEqual({ start: "", end: "" });
  });
});

describe("task state", () => {
  it("maps task statuses to 进行中 / 已完成 / 失败", () => {
    expect(taskStateLabel[taskState(undefined)]).toBe("进行中");
    expect(taskStateLabel[taskState(TaskStatus.Pending)]).toBe("进行中");
    expect(taskStateLabel[taskState(TaskStatus.Running)]).toBe("进行中");
    expect(taskStateLabel[taskState(TaskStatus.Succeeded)]).toBe("已完成");
    expect(taskStateLabel[taskState(TaskStatus.Failed)]).toBe("失败");
    expect(isTaskFinished(taskState(TaskStatus.Running))).toBe(false);
    expect(isTaskFinished(taskState(TaskStatus.Cancelled))).toBe(true);
  });
});

describe("form schemas", () => {
  const base = { email: "", phoneNumber: "", remark: "", limitMeliAccount: "", collectCount: "", productCount: "", isShowPageCrwal: true };
  it("sends blanks as null and limits as numbers", () => {
    expect(editSubUserForm.parse({ ...base, collectCount: "5", remark: " hi " })).toEqual({
      email: null,
      phoneNumber: null,
      remark: "hi",
      limitMeliAccount: null,
      collectCount: 5,
      productCount: null,
      isShowPageCrwal: true,
    });
  });
  it("refuses bad limits, e-mails and passwords with Chinese messages", () => {
    const r = createSubUserForm.safeParse({ ...base, userName: "bob", pwd: "abcdef", email: "x", productCount: "-1" });
    expect(r.success).toBe(false);
    const messages = r.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(messages).toContain("pwd: 密码需包含数字");
    expect(messages).toContain("email: 邮箱格式不正确");
    expect(messages).toContain("productCount: 请输入不小于0的整数");
    expect(editSubUserForm.safeParse({ ...base, productCount: "100000001" }).error?.issues[0].message).toBe("不能超过100000000");
  });
  it("requires the two new passwords to match", () => {
    expect(resetPasswordForm.safeParse({ newPwd: "abc123", confirm: "abc124" }).error?.issues[0].message).toBe("两次输入的密码不一致");
    expect(resetPasswordForm.safeParse({ newPwd: "abc123", confirm: "abc123" }).success).toBe(true);
  });
  it("fills the edit form from a row", () => {
    const values = editValuesOf({
      id: "1",
      userName: "bob",
      email: null,
      phoneNumber: "138",
      remark: null,
      limitMeliAccount: 3,
      collectCount: null,
      productCount: 0,
      isShowPageCrwal: false,
      creationTime: "",
      creatorId: null,
      isActive: true,
      isMainAccount: false,
      concurrencyStamp: "s",
    });
    expect(values).toEqual({ ...base, phoneNumber: "138", limitMeliAccount: "3", productCount: "0", isShowPageCrwal: false });
  });
});

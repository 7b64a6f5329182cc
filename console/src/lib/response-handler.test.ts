// @vitest-environment happy-dom
// Spec §8: the notice the shared response handler shows for each status.
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, ClientErrorCode, errorFromBody } from "#shared/api/errors.ts";
import { useToastStore } from "#shared/ui/toast.tsx";
import { handleServerError, noticeOf } from "./response-handler.ts";

const abp = (message: string | null, details: string | null = null) => ({
  error: { code: null, message, details, data: null, validationErrors: null },
});
const shown = () => useToastStore.getState().toasts.map((t) => [t.type, t.message]);

afterEach(() => useToastStore.setState({ toasts: [] }));

describe("response handler", () => {
  it.each([
    [
      400,
      abp("Your request is not valid!", "The following errors were detected: 用户名不能为空"),
      "The following errors were detected: 用户名不能为空",
    ],
    [400, abp("余额不足"), "余额不足"],
    [401, abp(null), "登录已过期，请重新登录"],
    [403, abp("仅平台管理员可以执行此操作"), "仅平台管理员可以执行此操作"],
    [403, abp(null), "暂无权限"],
    [404, abp("配置 X 不存在"), "公司未找到"],
    [429, abp("Too many"), "访问太多，请稍候访问!"],
    [500, abp("数据库不可用"), "数据库不可用"],
    [500, "<html>bad gateway</html>", "服务器内部错误"],
  ] as [number, unknown, string][])("%i shows its message", (status, body, message) => {
    const error = errorFromBody(status, body);
    expect(noticeOf(error)).toBe(message);
    expect(handleServerError(error)).toBe(true);
    expect(shown()).toEqual([[status === 401 ? "warning" : "error", message]]);
  });

  it.each([409, 413, 502])("%i is thrown onward: no notice", (status) => {
    const error = errorFromBody(status, abp("Conflict"));
    expect(noticeOf(error)).toBeNull();
    expect(handleServerError(error)).toBe(false);
    expect(shown()).toEqual([]);
  });

  it("no answer (network, time-out) says so", () => {
    const error = new ApiError({ status: 0, code: ClientErrorCode.Network, message: "无法连接服务器，请检查服务器地址和网络" });
    expect(noticeOf(error)).toBe("无法连接服务器，请检查服务器地址和网络");
  });

  it("errors that are not call errors are left to their code", () => {
    expect(handleServerError(new Error("boom"))).toBe(false);
    expect(shown()).toEqual([]);
  });

  it("the same notice from parallel calls shows once", () => {
    handleServerError(errorFromBody(429, null));
    handleServerError(errorFromBody(429, null));
    expect(shown()).toEqual([["error", "访问太多，请稍候访问!"]]);
  });
});

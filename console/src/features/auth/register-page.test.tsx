// @vitest-environment happy-dom
// Sign-up as a visitor meets it: 登录 offers 注册 only while the host allows it; the register form checks the contract's
// rules before sending, shows the server's refusal on the field it concerns and above the button, and signs the new
// main account in. The account and settings calls answer from stand-ins for the server; signing in is the session's.
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "#shared/api/errors.ts";
import { basicRoutes } from "#shared/routes/table.ts";
import { useToastStore } from "#shared/ui/toast.tsx";
import { sessionApi } from "../../lib/api.ts";
import { queryClient } from "../../lib/query-client.ts";
import { loginAndLoad } from "../../lib/session.ts";
import { LAST_TENANT_KEY, LoginPage } from "./login-page.tsx";
import { RegisterPage } from "./register-page.tsx";

vi.mock("../../lib/session.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../lib/session.ts")>()),
  loginAndLoad: vi.fn(async () => true),
}));

let open: boolean;
beforeEach(() => {
  open = true;
  localStorage.clear();
  vi.spyOn(sessionApi.settings, "getPublicSettings").mockImplementation(async () => ({ selfRegistrationEnabled: open }));
  vi.spyOn(sessionApi.account, "register").mockImplementation(async () => {
    throw new Error("register not expected");
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.mocked(loginAndLoad).mockClear();
  queryClient.clear();
  useToastStore.setState({ toasts: [] });
});

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <QueryClientProvider client={queryClient}>
        <Routes>
          <Route path={basicRoutes.login} element={<LoginPage />} />
          <Route path={basicRoutes.register} element={<RegisterPage />} />
          <Route path={basicRoutes.home} element={<p data-testid="home">工作台</p>} />
        </Routes>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

const input = (name: string) => document.querySelector<HTMLInputElement>(`input[name=${name}]`)!;
const fieldMessage = (name: string) => input(name).closest("[data-slot=form-item]")?.querySelector("[data-slot=form-message]")?.textContent;

function fill(values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) fireEvent.change(input(name), { target: { value } });
}

const valid = {
  tenantName: "新公司",
  userName: "owner",
  emailAddress: "owner@example.com",
  password: "Secret123",
  confirmPassword: "Secret123",
};

describe("登录 → 注册", () => {
  it("links to 注册 while self-registration is open, and leads to the register form", async () => {
    renderAt(basicRoutes.login);
    fireEvent.click(await screen.findByTestId("register-link"));
    await screen.findByTestId("register-form");
  });

  it("offers no 注册 while it is closed", async () => {
    open = false;
    renderAt(basicRoutes.login);
    await waitFor(() => expect(sessionApi.settings.getPublicSettings).toHaveBeenCalled());
    await screen.findByTestId("login-form");
    // The answer has arrived (the query settled) and still no link.
    await waitFor(() => expect(queryClient.getQueryState(["settings", "public"])?.status).toBe("success"));
    expect(screen.queryByTestId("register-link")).toBeNull();
  });
});

describe("注册", () => {
  it("checks the contract's rules before sending anything", async () => {
    renderAt(basicRoutes.register);
    await screen.findByTestId("register-form");
    fireEvent.click(screen.getByTestId("register-submit"));
    await waitFor(() => expect(fieldMessage("tenantName")).toBe("请输入公司名称"));
    expect(fieldMessage("userName")).toBe("请输入用户名");
    expect(fieldMessage("emailAddress")).toBe("请输入邮箱");
    expect(fieldMessage("password")).toBe("请输入密码");
    expect(fieldMessage("confirmPassword")).toBe("请输入确认密码");

    fill({ ...valid, tenantName: "has space", emailAddress: "not-an-email", password: "abcdefg", confirmPassword: "abcdefh" });
    fireEvent.click(screen.getByTestId("register-submit"));
    await waitFor(() => expect(fieldMessage("tenantName")).toBe("公司名只能包含字母、数字和 _ . -"));
    expect(fieldMessage("userName")).toBeUndefined();
    expect(fieldMessage("emailAddress")).toBe("邮箱格式不正确");
    expect(fieldMessage("password")).toBe("密码需包含数字");
    expect(sessionApi.account.register).not.toHaveBeenCalled();

    fill({ ...valid, confirmPassword: "Secret124" });
    fireEvent.click(screen.getByTestId("register-submit"));
    await waitFor(() => expect(fieldMessage("confirmPassword")).toBe("两次输入的密码不一致"));
    expect(sessionApi.account.register).not.toHaveBeenCalled();
  });

  it("shows the server's refusal on the field it concerns and above the button", async () => {
    vi.mocked(sessionApi.account.register).mockRejectedValue(
      new ApiError({ status: 403, code: "DuplicateTenantName", serverMessage: "公司名 新公司 已存在" }),
    );
    renderAt(basicRoutes.register);
    await screen.findByTestId("register-form");
    fill(valid);
    fireEvent.click(screen.getByTestId("register-submit"));
    await waitFor(() => expect(screen.getByTestId("register-error").textContent).toBe("公司名 新公司 已存在"));
    expect(fieldMessage("tenantName")).toBe("公司名 新公司 已存在");
    expect(useToastStore.getState().toasts.map((t) => t.message)).toContain("公司名 新公司 已存在");
    expect(loginAndLoad).not.toHaveBeenCalled();
  });

  it("puts a validation answer's message on the field it names", async () => {
    vi.mocked(sessionApi.account.register).mockRejectedValue(
      new ApiError({
        status: 400,
        serverMessage: "Your request is not valid!",
        details: "The following errors were detected during validation.\n - 邮箱格式不正确\n",
        validationErrors: [{ message: "邮箱格式不正确", members: ["emailAddress"] }],
      }),
    );
    renderAt(basicRoutes.register);
    await screen.findByTestId("register-form");
    fill(valid);
    fireEvent.click(screen.getByTestId("register-submit"));
    await waitFor(() => expect(fieldMessage("emailAddress")).toBe("邮箱格式不正确"));
    expect(screen.getByTestId("register-error").textContent).toContain("邮箱格式不正确");
  });

  it("shows the screen closed when the server says registration has closed meanwhile", async () => {
    vi.mocked(sessionApi.account.register).mockImplementation(async () => {
      open = false;
      throw new ApiError({ status: 403, code: "SelfRegistrationDisabled", serverMessage: "系统未开放注册，请联系平台管理员开通账号" });
    });
    renderAt(basicRoutes.register);
    await screen.findByTestId("register-form");
    fill(valid);
    fireEvent.click(screen.getByTestId("register-submit"));
    await screen.findByTestId("register-closed");
    expect(screen.getByTestId("register-closed").textContent).toContain("系统未开放注册，请联系平台管理员开通账号");
    expect(useToastStore.getState().toasts.map((t) => t.message)).toContain("系统未开放注册，请联系平台管理员开通账号");
  });

  it("opened directly while closed, says so and leads back to 登录", async () => {
    open = false;
    renderAt(basicRoutes.register);
    await screen.findByTestId("register-closed");
    expect(screen.queryByTestId("register-form")).toBeNull();
    fireEvent.click(screen.getByText("返回登录"));
    await screen.findByTestId("login-form");
  });

  it("registers without a tenant header, then signs the new main account in and lands on the dashboard", async () => {
    vi.mocked(sessionApi.account.register).mockResolvedValue({} as never);
    renderAt(basicRoutes.register);
    await screen.findByTestId("register-form");
    fill({ ...valid, tenantName: " 新公司 " });
    fireEvent.click(screen.getByTestId("register-submit"));
    await screen.findByTestId("home");
    expect(sessionApi.account.register).toHaveBeenCalledWith(
      { tenantName: "新公司", userName: "owner", emailAddress: "owner@example.com", password: "Secret123" },
      { tenant: null },
    );
    expect(loginAndLoad).toHaveBeenCalledWith({ tenantName: "新公司", userName: "owner", password: "Secret123" });
    expect(localStorage.getItem(LAST_TENANT_KEY)).toBe("新公司");
  });
});

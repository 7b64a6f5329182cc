// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useForm } from "react-hook-form";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { Form, FormField, isEmptyValue, requiredMessage, useZodForm } from "./form.tsx";
import { Input } from "./input.tsx";

afterEach(cleanup);

describe("requiredMessage", () => {
  it("is 请输入 + the label", () => {
    expect(requiredMessage("用户名")).toBe("请输入用户名");
    expect(requiredMessage("邮箱")).toBe("请输入邮箱");
  });
});

describe("isEmptyValue", () => {
  it("treats nothing, blank text and empty lists as empty", () => {
    for (const v of [undefined, null, "", "   ", [], Number.NaN]) expect(isEmptyValue(v)).toBe(true);
    for (const v of ["a", 0, false, [1], {}]) expect(isEmptyValue(v)).toBe(false);
  });
});

function LoginForm({
  schema,
  onSubmit,
}: {
  schema: z.ZodType<{ userName: string; password: string }, any>;
  onSubmit: (v: unknown) => void;
}) {
  const form = useZodForm(schema, { defaultValues: { userName: "", password: "" } });
  return (
    <Form form={form} onSubmit={onSubmit}>
      <FormField form={form} name="userName" label="用户名" required render={(field) => <Input {...field} />} />
      <FormField
        form={form}
        name="password"
        label="密码"
        required
        description="至少 6 位"
        render={(field) => <Input type="password" {...field} />}
      />
      <button type="submit">登录</button>
    </Form>
  );
}

describe("FormField + useZodForm", () => {
  it("submitting an empty required field shows 请输入{label} even when the schema accepts empty strings", async () => {
    const onSubmit = vi.fn();
    render(<LoginForm schema={z.object({ userName: z.string(), password: z.string() })} onSubmit={onSubmit} />);
    fireEvent.click(screen.getByRole("button", { name: "登录" }));
    expect(await screen.findByText("请输入用户名")).toBeTruthy();
    expect(screen.getByText("请输入密码")).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("replaces the schema's own empty-value message with 请输入{label}", async () => {
    const schema = z.object({ userName: z.string().min(1, "Too small"), password: z.string().min(6, "密码至少 6 位") });
    const onSubmit = vi.fn();
    render(<LoginForm schema={schema} onSubmit={onSubmit} />);
    fireEvent.click(screen.getByRole("button", { name: "登录" }));
    expect(await screen.findByText("请输入用户名")).toBeTruthy();
    expect(screen.queryByText("Too small")).toBeNull();
    expect(screen.getByText("请输入密码")).toBeTruthy();
    expect(screen.queryByText("密码至少 6 位")).toBeNull();
  });

  it("shows the schema's message for a filled but invalid value, and submits parsed values when valid", async () => {
    const schema = z.object({ userName: z.string().trim(), password: z.string().min(6, "密码至少 6 位") });
    const onSubmit = vi.fn();
    render(<LoginForm schema={schema} onSubmit={onSubmit} />);
    const userName = screen.getByLabelText(/用户名/) as HTMLInputElement;
    const password = screen.getByLabelText(/密码/) as HTMLInputElement;
    fireEvent.change(userName, { target: { value: "  admin " } });
    fireEvent.change(password, { target: { value: "123" } });
    fireEvent.click(screen.getByRole("button", { name: "登录" }));
    expect(await screen.findByText("密码至少 6 位")).toBeTruthy();
    expect(screen.queryByText("请输入用户名")).toBeNull();
    expect(password.getAttribute("aria-invalid")).toBe("true");
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.change(password, { target: { value: "123456" } });
    await waitFor(() => expect(screen.queryByText("密码至少 6 位")).toBeNull());
    fireEvent.click(screen.getByRole("button", { name: "登录" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toEqual({ userName: "admin", password: "123456" });
  });

  it("whitespace-only input in a required field counts as empty", async () => {
    const onSubmit = vi.fn();
    render(<LoginForm schema={z.object({ userName: z.string(), password: z.string() })} onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText(/用户名/), { target: { value: "   " } });
    fireEvent.change(screen.getByLabelText(/密码/), { target: { value: "secret1" } });
    fireEvent.click(screen.getByRole("button", { name: "登录" }));
    expect(await screen.findByText("请输入用户名")).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("ties the label, description and error to the control", async () => {
    render(<LoginForm schema={z.object({ userName: z.string(), password: z.string() })} onSubmit={() => {}} />);
    const password = screen.getByLabelText(/密码/);
    expect(password.getAttribute("aria-required")).toBe("true");
    const description = screen.getByText("至少 6 位");
    expect(password.getAttribute("aria-describedby")).toBe(description.id);
    fireEvent.click(screen.getByRole("button", { name: "登录" }));
    const error = await screen.findByText("请输入密码");
    expect(error.getAttribute("role")).toBe("alert");
    expect(password.getAttribute("aria-describedby")).toContain(error.id);
  });

  it("a field that is not required keeps the schema's own message", async () => {
    function Optional() {
      const form = useZodForm(z.object({ remark: z.string().min(1, "备注不能为空") }), { defaultValues: { remark: "" } });
      return (
        <Form form={form} onSubmit={() => {}}>
          <FormField form={form} name="remark" label="备注" render={(field) => <Input {...field} />} />
          <button type="submit">提交</button>
        </Form>
      );
    }
    render(<Optional />);
    fireEvent.click(screen.getByRole("button", { name: "提交" }));
    expect(await screen.findByText("备注不能为空")).toBeTruthy();
  });

  it("works on a plain useForm without a resolver (rules)", async () => {
    const onSubmit = vi.fn();
    function Plain() {
      const form = useForm<{ email: string }>({ defaultValues: { email: "" } });
      return (
        <Form form={form} onSubmit={onSubmit}>
          <FormField form={form} name="email" label="邮箱" required render={(field) => <Input {...field} />} />
          <button type="submit">提交</button>
        </Form>
      );
    }
    render(<Plain />);
    fireEvent.click(screen.getByRole("button", { name: "提交" }));
    expect(await screen.findByText("请输入邮箱")).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.change(screen.getByLabelText(/邮箱/), { target: { value: "a@b.c" } });
    });
    fireEvent.click(screen.getByRole("button", { name: "提交" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
  });

  it("renders a <form noValidate>", () => {
    const { container } = render(<LoginForm schema={z.object({ userName: z.string(), password: z.string() })} onSubmit={() => {}} />);
    expect(container.querySelector("form")?.noValidate).toBe(true);
  });
});

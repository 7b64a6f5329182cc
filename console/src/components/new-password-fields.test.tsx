// @vitest-environment happy-dom
// The new password typed twice inside a form: both fields required with their labels, the hint under the first, the
// mismatch shown on the confirm field, and a matching pair submitted.
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Button } from "#shared/ui/button.tsx";
import { Form, useZodForm } from "#shared/ui/form.tsx";
import { confirmMatches, PASSWORD_MISMATCH } from "../lib/password.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";

afterEach(cleanup);

const schema = z.object({ newPwd: z.string(), again: z.string() }).refine(...confirmMatches("again"));

function PasswordForm({ onSubmit }: { onSubmit: (v: z.output<typeof schema>) => void }) {
  const form = useZodForm(schema, { defaultValues: { newPwd: "", again: "" } });
  return (
    <Form form={form} onSubmit={onSubmit}>
      <NewPasswordFields form={form} confirm="again" testId="t" />
      <Button type="submit">提交</Button>
    </Form>
  );
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
const messageOf = (testId: string) =>
  screen.getByTestId(testId).closest("[data-slot=form-item]")?.querySelector("[data-slot=form-message]")?.textContent;

describe("NewPasswordFields", () => {
  it("asks for both, then shows a mismatch on the confirm field and submits a matching pair", async () => {
    const sent: unknown[] = [];
    render(<PasswordForm onSubmit={(v) => sent.push(v)} />);
    expect(screen.getByLabelText("*新密码").getAttribute("type")).toBe("password");
    expect(screen.getByText("至少6位，需同时包含字母和数字")).toBeTruthy();

    fireEvent.click(screen.getByText("提交"));
    await waitFor(() => expect(messageOf("t-new")).toBe("请输入新密码"));
    expect(messageOf("t-confirm")).toBe("请输入确认新密码");

    type("t-new", "abc123");
    type("t-confirm", "abc124");
    fireEvent.click(screen.getByText("提交"));
    await waitFor(() => expect(messageOf("t-confirm")).toBe(PASSWORD_MISMATCH));

    type("t-confirm", "abc123");
    fireEvent.click(screen.getByText("提交"));
    await waitFor(() => expect(sent).toEqual([{ newPwd: "abc123", again: "abc123" }]));
  });
});

// @vitest-environment happy-dom
// One Idempotency-Key per submitted dialog: the same content submitted again after a failure reuses the key (the
// server then answers the first result), while a success or other content starts a new one.
import { renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useSubmitKey } from "./query-client.ts";

function submitter(outcomes: ("ok" | "lost")[]) {
  const keys: string[] = [];
  const call = async (_variables: { rate: number }, options: { idempotencyKey: string }) => {
    keys.push(options.idempotencyKey);
    if (outcomes.shift() === "lost") throw new Error("the answer was lost");
    return "done";
  };
  const { result } = renderHook(() => useSubmitKey(call));
  return { submit: (v: { rate: number }) => result.current(v), keys };
}

describe("useSubmitKey", () => {
  it("submitting the same content after a failure reuses the key; success ends it", async () => {
    const { submit, keys } = submitter(["lost", "ok", "ok"]);
    await expect(submit({ rate: 1.1 })).rejects.toThrow();
    await expect(submit({ rate: 1.1 })).resolves.toBe("done");
    await submit({ rate: 1.1 });
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
  });

  it("other content after a failure is another request: a new key", async () => {
    const { submit, keys } = submitter(["lost", "ok"]);
    await expect(submit({ rate: 1.1 })).rejects.toThrow();
    await submit({ rate: 1.2 });
    expect(keys[1]).not.toBe(keys[0]);
  });

  it("a call without input gets a key, and the same key again after a failure", async () => {
    const keys: string[] = [];
    let lose = true;
    const call = async (_variables: undefined, options: { idempotencyKey: string }) => {
      keys.push(options.idempotencyKey);
      if (lose) {
        lose = false;
        throw new Error("the answer was lost");
      }
      return "done";
    };
    const { result } = renderHook(() => useSubmitKey(call));
    await expect(result.current(undefined)).rejects.toThrow("the answer was lost");
    await expect(result.current(undefined)).resolves.toBe("done");
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});

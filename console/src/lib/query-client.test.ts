// A mutation hook's own cache work and its caller's options run together: the hook's callback first, then the
// caller's; the caller's other settings (meta) are kept.
import { MutationObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "#shared/api/errors.ts";
import { isConflict, queryClient, withCallerConfig } from "./query-client.ts";

afterEach(() => queryClient.clear());

const run = <T, V>(options: ReturnType<typeof withCallerConfig<T, V>>, variables: V) =>
  new MutationObserver(queryClient, options).mutate(variables);

describe("withCallerConfig", () => {
  it("runs the hook's onSuccess, waits for it, then the caller's", async () => {
    const order: string[] = [];
    const options = withCallerConfig<number, number>(
      {
        mutationFn: async (n) => n * 2,
        onSuccess: async (data) => {
          await new Promise((r) => setTimeout(r, 5));
          order.push(`own ${data}`);
        },
      },
      { onSuccess: (data, n) => void order.push(`caller ${data} ${n}`), meta: { silent: true } },
    );
    expect(options.meta).toEqual({ silent: true });
    await expect(run(options, 21)).resolves.toBe(42);
    expect(order).toEqual(["own 42", "caller 42 21"]);
  });

  it("runs both onSettled callbacks after a failure, and only the one given when the other is not", async () => {
    const order: string[] = [];
    const options = withCallerConfig<void, void>(
      {
        mutationFn: () => Promise.reject(new ApiError({ status: 409, message: "stale" })),
        onSettled: () => void order.push("own"),
        meta: { silent: true },
      },
      {
        onError: (e) => void order.push(isConflict(e) ? "caller saw 409" : "caller saw other"),
        onSettled: () => void order.push("caller"),
      },
    );
    await expect(run(options, undefined)).rejects.toBeInstanceOf(ApiError);
    expect(order).toEqual(["caller saw 409", "own", "caller"]);
  });
});

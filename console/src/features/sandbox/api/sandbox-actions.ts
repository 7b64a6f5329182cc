// What the host makes happen on the sandbox; each refreshes the page's state. Inputs are the contract's schemas.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  createSandboxOrderBody,
  moveSandboxClockBody,
  refuseSandboxCallsBody,
  sendSandboxNotificationBody,
  setSandboxOrderRateBody,
} from "#shared/contract/meli-sandbox.ts";
import { api } from "../../../lib/feature-api.ts";
import { withCallerConfig, type MutationHookOptions } from "../../../lib/query-client.ts";
import { sandboxKeys } from "./get-sandbox.ts";

export const createSandboxOrder = (input: z.input<typeof createSandboxOrderBody>) => api.meliSandbox.createOrder(input);
export const moveSandboxClock = (input: z.input<typeof moveSandboxClockBody>) => api.meliSandbox.moveClock(input);
export const sendSandboxNotification = (input: z.input<typeof sendSandboxNotificationBody>) => api.meliSandbox.sendNotification(input);
export const refuseSandboxCalls = (input: z.input<typeof refuseSandboxCallsBody>) => api.meliSandbox.refuseCalls(input);
export const setSandboxOrderRate = (input: z.input<typeof setSandboxOrderRateBody>) => api.meliSandbox.setOrderRate(input);

/** The call, then the page's state read again. */
function useSandboxMutation<I, O>(fn: (input: I) => Promise<O>, options: MutationHookOptions<(input: I) => Promise<O>> = {}) {
  const queryClient = useQueryClient();
  return useMutation(
    withCallerConfig<Awaited<O>, I>(
      {
        mutationFn: fn as (input: I) => Promise<Awaited<O>>,
        onSuccess: () => queryClient.invalidateQueries({ queryKey: sandboxKeys.all }),
      },
      options.mutationConfig,
    ),
  );
}

export const useCreateSandboxOrder = (o?: MutationHookOptions<typeof createSandboxOrder>) => useSandboxMutation(createSandboxOrder, o);
export const useMoveSandboxClock = (o?: MutationHookOptions<typeof moveSandboxClock>) => useSandboxMutation(moveSandboxClock, o);
export const useSendSandboxNotification = (o?: MutationHookOptions<typeof sendSandboxNotification>) =>
  useSandboxMutation(sendSandboxNotification, o);
export const useRefuseSandboxCalls = (o?: MutationHookOptions<typeof refuseSandboxCalls>) => useSandboxMutation(refuseSandboxCalls, o);
export const useSetSandboxOrderRate = (o?: MutationHookOptions<typeof setSandboxOrderRate>) => useSandboxMutation(setSandboxOrderRate, o);

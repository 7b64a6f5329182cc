// What a first start sets going once the app is built (unless DEMO_DATA=0): on the built-in sandbox, the host's
// category sync (the existing UpdateAllCategory task, so the editor's category picker works without a host step), and
// the demo tenant's content as a job (retried, and resumed by the next start if the process stops). Both go through the
// app's own API, as the host and the demo seller.
import type { FastifyInstance } from "fastify";
import type { BootstrapResult } from "../../bootstrap.ts";
import { HOST_TENANT_ID } from "../../db/schema.ts";
import type { AppDeps } from "../../deps.ts";
import { apiAs, injectFetch } from "./api-as.ts";
import { generatePassword } from "../identity/index.ts";
import { DEMO_SHOP, fillDemoTenant } from "./demo-content.ts";
import { inScope } from "../../db/scope.ts";
import { forgetProductEdits } from "../products/index.ts";

export const DEMO_JOB = "demo.fill";
/** On a first start, the built-in sandbox's demo seller gets orders about this often (the host changes it on 沙箱). */
const DEMO_ORDER_MINUTES = 5;
type DemoJob = { tenantId: string; userId: string };

export type FirstStart = {
  /** Queues the first start's work; does nothing on a later start. Call once the queue has started. */
  queue(boot: BootstrapResult): Promise<void>;
};

/**
 * The built-in sandbox's demo seller (DEMO_SHOP) on a first start: created, or given a new password when a kept sandbox
 * state already has it, and answered so the start prints it with the other demo credentials (its consent page asks
 * for it when the shop is authorized again). The sandbox's order stream is set to a pace a newcomer sees.
 */
export function prepareDemoSeller(deps: Pick<AppDeps, "sandbox">, boot: BootstrapResult): { nickname: string; password: string } | null {
  if (!deps.sandbox || !boot.demo) return null;
  const control = deps.sandbox.control;
  const password = generatePassword();
  const seller = control.createSeller({ nickname: DEMO_SHOP, site: "MLM", password });
  control.setSellerPassword(seller.id, password);
  control.orderStream.setIntervalMinutes(DEMO_ORDER_MINUTES);
  return { nickname: DEMO_SHOP, password };
}

/** Registers the demo job's worker on deps.jobs: call before the queue starts. */
export function createFirstStart(app: FastifyInstance, deps: AppDeps): FirstStart {
  const fetch = injectFetch(app);
  deps.jobs.handle<DemoJob>(DEMO_JOB, async (who) => {
    const api = await apiAs(fetch, deps, who);
    const { editIds } = await fillDemoTenant({ api, fetch, sandbox: deps.sandbox, log: deps.log, imageBase: deps.config.publicUrl });
    // The labelling was the product's, not the seller's: 撤销上次批量修改 must not offer to undo it.
    await inScope(deps.database.db, { tenantId: who.tenantId }, (tx) =>
      forgetProductEdits({ tx, tenantId: who.tenantId, user: { id: who.userId } }, editIds),
    );
  });
  return {
    async queue(boot) {
      if (!deps.config.demoData) return;
      // On Mercado Libre itself the sync reads thousands of categories per site: the host starts it when wanted.
      if (boot.adminId && deps.config.meliSandbox) {
        const host = await apiAs(fetch, deps, { tenantId: HOST_TENANT_ID, userId: boot.adminId });
        const { taskId } = await host.meliCategory.updateAllCategory({});
        deps.log.info({ taskId }, "first start: category sync queued");
      }
      if (boot.demo) {
        await deps.jobs.send<DemoJob>(DEMO_JOB, { tenantId: boot.demo.tenantId, userId: boot.demo.userId });
      }
    },
  };
}

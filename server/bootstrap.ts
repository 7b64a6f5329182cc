// First-start data: the host administrator, a demo tenant to click through, whether companies may register themselves,
// and the currency table. Idempotent: a
// later start finds them and changes nothing. What the first start then does through the API (the category sync, the
// demo tenant's content) is in modules/demo/first-start.ts.
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "./db/client.ts";
import { currencies, HOST_TENANT_ID, settings, tenants, users } from "./db/schema.ts";
import { hostAllScope, hostScope, inScope } from "./db/scope.ts";
import { createPasswordHasher, generatePassword, type PasswordHasher } from "./modules/identity/passwords.ts";
import { insertTenantWithMainAccount, insertUser } from "./modules/identity/users.ts";
import { SettingKeys } from "#shared/contract/setting-registry.ts";

export const DEMO_TENANT = "demo";
export const DEMO_USER = "demo";

/** CNY for one unit of each currency; the host edits them later. */
const seedRates: { code: string; zh: string; rate: string }[] = [
  { code: "CNY", zh: "人民币", rate: "1" },
  { code: "USD", zh: "美元", rate: "7.1" },
  { code: "MXN", zh: "墨西哥比索", rate: "0.39" },
  { code: "BRL", zh: "巴西雷亚尔", rate: "1.3" },
  { code: "CLP", zh: "智利比索", rate: "0.0075" },
  { code: "COP", zh: "哥伦比亚比索", rate: "0.0018" },
  // Product prices collected from AliExpress and Temu stores come in these too.
  { code: "EUR", zh: "欧元", rate: "7.7" },
  { code: "GBP", zh: "英镑", rate: "9" },
  { code: "HKD", zh: "港币", rate: "0.91" },
];

export type BootstrapResult = {
  /** Set only when the administrator was created now with a generated password. */
  generatedAdminPassword?: string;
  adminCreated: boolean;
  /** The administrator created now (a first start). */
  adminId?: string;
  demo?: { tenantId: string; userId: string; tenantName: string; userName: string; password: string };
};

export async function bootstrap(
  db: Db,
  opts: {
    adminPassword?: string;
    withDemo?: boolean;
    /**
     * Self-registration as the first start leaves it (Account.IsSelfRegistrationEnabled, written then so 系统配置 shows
     * it): on for the embedded demo (PGlite), off otherwise. An unset value means off.
     */
    selfRegistration?: boolean;
    /** The hash of the passwords made here; the default cost unless a test's config lowers it. */
    passwords?: PasswordHasher;
  },
): Promise<BootstrapResult> {
  const result: BootstrapResult = { adminCreated: false };
  const passwords = opts.passwords ?? createPasswordHasher();
  await inScope(db, hostScope, async (tx) => {
    // Processes starting at once on one database (N API and M workers): one creates the administrator, the others wait
    // for its commit here and find it. A transaction's lock, so it holds through a transaction pooler too.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('erp:first-start'))`);
    const existing = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, HOST_TENANT_ID), eq(users.isHost, true)))
      .limit(1);
    if (existing.length) return;
    const password = opts.adminPassword ?? generatePassword();
    const admin = await insertUser(
      tx,
      {
        tenantId: HOST_TENANT_ID,
        userName: "admin",
        password,
        isHost: true,
        isMainAccount: true,
        name: "平台管理员",
      },
      passwords,
    );
    result.adminCreated = true;
    result.adminId = admin.id;
    await tx
      .insert(settings)
      .values({ id: randomUUID(), name: "开放注册", key: SettingKeys.selfRegistrationEnabled, value: String(!!opts.selfRegistration) })
      .onConflictDoNothing({ target: settings.key });
    if (!opts.adminPassword) result.generatedAdminPassword = password;
  });
  if (result.adminCreated && opts.withDemo !== false) {
    await inScope(db, hostAllScope, async (tx) => {
      const exists = await tx
        .select({ id: tenants.id })
        .from(tenants)
        .where(eq(tenants.normalizedName, DEMO_TENANT.toUpperCase()))
        .limit(1);
      if (exists.length) return;
      const password = generatePassword();
      const { tenant, user } = await insertTenantWithMainAccount(
        tx,
        {
          tenantName: DEMO_TENANT,
          userName: DEMO_USER,
          pwd: password,
          remark: "演示公司",
        },
        passwords,
      );
      result.demo = { tenantId: tenant.id, userId: user.id, tenantName: DEMO_TENANT, userName: DEMO_USER, password };
    });
  }
  await inScope(db, hostAllScope, async (tx) => {
    await tx
      .insert(currencies)
      .values(seedRates.map((c) => ({ id: randomUUID(), ...c })))
      .onConflictDoNothing({ target: currencies.code });
  });
  return result;
}

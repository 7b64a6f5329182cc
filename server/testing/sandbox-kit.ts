// For the sandbox's tests: a standalone sandbox on a frozen clock spoken to through Fastify's inject, a seller
// connected through the real consent and token calls, and a valid item body for any leaf.
import type { FastifyInstance } from "fastify";
import type { Category } from "../sandbox/categories.ts";
import { buildSandboxServer, createSandbox, type Sandbox, type SandboxOptions } from "../sandbox/sandbox.ts";
import { SITES, type LocalSiteId, type SiteId } from "../sandbox/sites.ts";

const START = new Date("2026-03-02T12:00:00.000Z");
export const REDIRECT = "https://erp.example.com/api/Meli/AuthBack";
/** The password test sellers sign up with on the consent form, and sign in with after that. */
export const SELLER_PASSWORD = "sandbox-seller-pass";

type CallOptions = {
  token?: string;
  body?: unknown;
  form?: Record<string, string | string[]>;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
};

type Answer = { status: number; body: any; headers: Record<string, unknown>; raw: string };

export type TestSandbox = {
  app: FastifyInstance;
  sandbox: Sandbox;
  control: Sandbox["control"];
  call(method: string, url: string, opts?: CallOptions): Promise<Answer>;
  /** Consent page + code exchange, as the ERP will do it. */
  connect(
    nickname: string,
    site?: SiteId,
    marketplaces?: LocalSiteId[],
  ): Promise<{ access_token: string; refresh_token: string; user_id: number }>;
  close(): Promise<void>;
};

export async function startSandbox(options: SandboxOptions = {}, prefix = ""): Promise<TestSandbox> {
  const sandbox = createSandbox({ clock: { start: START }, ...options });
  const app = await buildSandboxServer(sandbox);
  await app.ready();

  async function call(method: string, url: string, opts: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let payload: string | undefined;
    if (opts.form) {
      const p = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.form)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
      payload = p.toString();
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    } else if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await app.inject({
      method: method as "GET",
      url: prefix + url,
      query: opts.query ? Object.fromEntries(Object.entries(opts.query).map(([k, v]) => [k, String(v)])) : undefined,
      headers,
      payload,
    });
    let body: unknown = null;
    try {
      body = res.body ? JSON.parse(res.body) : null;
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, body, headers: res.headers, raw: res.body };
  }

  async function connect(nickname: string, site: SiteId = "MLM", marketplaces: LocalSiteId[] = ["MLM", "MLB", "MLC", "MCO"]) {
    const { clientId, clientSecret } = sandbox.control.app();
    const consent = await call("POST", "/auth/authorization", {
      form: {
        response_type: "code",
        client_id: clientId,
        redirect_uri: REDIRECT,
        state: "s1",
        nickname,
        password: SELLER_PASSWORD,
        signup: "1",
        site,
        marketplaces,
        decision: "allow",
      },
    });
    if (consent.status !== 302) throw new Error(`consent failed: ${consent.status} ${consent.raw}`);
    const code = new URL(String(consent.headers.location)).searchParams.get("code")!;
    const token = await call("POST", "/oauth/token", {
      form: { grant_type: "authorization_code", client_id: clientId, client_secret: clientSecret, code, redirect_uri: REDIRECT },
    });
    if (token.status !== 200) throw new Error(`token failed: ${token.status} ${token.raw}`);
    return token.body;
  }

  return { app, sandbox, control: sandbox.control, call, connect, close: () => app.close() };
}

/** A value for each required attribute (and the package of a global item) that passes the category's rules. */
export function requiredAttributes(category: Category) {
  return category.attributes
    .filter((a) => a.tags.required)
    .map((a) => {
      if (a.value_type === "number_unit") return { id: a.id, value_name: a.id === "PACKAGE_WEIGHT" ? "500 g" : `10 ${a.default_unit}` };
      if (a.value_type === "number") return { id: a.id, value_name: "1" };
      if (a.values?.length) return { id: a.id, value_id: a.values[0].id };
      return { id: a.id, value_name: "Sample" };
    });
}

/** A leaf of the site without variation attributes (the simplest to list in). */
export function plainLeaf(sandbox: Sandbox, site: SiteId): Category {
  return sandbox.store.trees[site].all.find((c) => c.leaf && !c.attributes.some((a) => a.tags.allow_variations))!;
}

/** A leaf of the site whose items take COLOR variations. */
export function variationLeaf(sandbox: Sandbox, site: SiteId): Category {
  return sandbox.store.trees[site].all.find((c) => c.leaf && c.attributes.find((a) => a.id === "COLOR")?.tags.allow_variations)!;
}

/**
 * A local category whose GTIN is conditional_required takes an item without GTIN with the reason why
 * (identificadores-de-productos.md "Razones de no enviar GTIN": 17055160 "No registrado").
 */
function gtinReason(category: Category): { id: string; value_id: string }[] {
  const conditional = category.site !== "CBT" && category.attributes.some((a) => a.id === "GTIN" && a.tags.conditional_required);
  return conditional ? [{ id: "EMPTY_GTIN_REASON", value_id: "17055160" }] : [];
}

export function itemBody(category: Category, overrides: Record<string, unknown> = {}) {
  return {
    title: "Producto de prueba",
    category_id: category.id,
    price: category.minimumPrice * 10,
    currency_id: SITES[category.site].currency,
    available_quantity: 5,
    buying_mode: "buy_it_now",
    listing_type_id: "gold_special",
    condition: "new",
    pictures: [{ source: "https://example.com/picture-1.jpg" }],
    attributes: [...requiredAttributes(category), ...gtinReason(category)],
    ...overrides,
  };
}

// The one pattern for an API call: `/api/<Group>/<Method>` (or an ABP path), zod schemas for query/body/params that
// validate and document it, an access level checked on the server, and a handler that runs inside one transaction
// scoped to the caller's tenant. A returned value answers 200 {result}; undefined answers 204.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import multipart from "@fastify/multipart";
import { z } from "zod";
import type { Database, Tx } from "../db/client.ts";
import { HOST_TENANT_ID } from "../db/schema.ts";
import { hostAllScope, inScope, type Scope, type TxLimits } from "../db/scope.ts";
import { sessionQuery, sessionUserOf, type SessionUser } from "./session-user.ts";
import { findTenant, type TenantRow } from "../db/tenants.ts";
import { type Principal, readPrincipal, tenantHint, type TokenSigner } from "./auth.ts";
import type { Admission } from "./admission.ts";
import { whileUserWaits } from "../user-waiting.ts";
import type { Access, CallDef as DeclaredCall } from "#shared/api/define.ts";
import { AppError, errorBody, forbidden, notFound, sqlState, unauthorized, unsupportedMediaType } from "./errors.ts";
import { receiveUploadBeforeTransaction, type ReadSlots } from "./upload.ts";
import {
  claimIdempotencyKey,
  IDEMPOTENCY_HEADER,
  readIdempotencyKey,
  recordIdempotentAnswer,
  requestHash,
  sendRecordedAnswer,
  type KeyOwner,
  type RecordedAnswer,
} from "./idempotency.ts";

export type CallContext = {
  tx: Tx;
  req: FastifyRequest;
  reply: FastifyReply;
  principal: Principal | null;
  /** The logged-in user's row, re-read in this transaction. */
  user: SessionUser | null;
  /** The tenant the call works in: the token's, else the `__tenant` header's, else the host's. */
  tenantId: string;
};

type AnyObject = z.ZodType<Record<string, unknown>>;

/** A call as the registrar runs it: its shared declaration with what the server adds (CallImpl). */
type RunDef<Q extends AnyObject, B extends z.ZodType, P extends AnyObject, R> = {
  group: string;
  name: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Overrides /api/<group>/<name> (ABP's account and tenancy paths). */
  path?: string;
  access: Access;
  summary?: string;
  query?: Q;
  body?: B;
  params?: P;
  /** The answer's shape, for the OpenAPI document. */
  result?: z.ZodType;
  /**
   * The call takes a multipart upload (read with `req.file()` in the handler). Only such calls parse multipart: the
   * parser lives in the call's own encapsulated context, so every other route still answers multipart with a 415.
   */
  multipart?: { fileSizeBytes: number };
  /**
   * The call is not naturally idempotent (a bulk edit, a creation, a task): it takes an `Idempotency-Key` header, and
   * the same key with the same request answers the first result without doing the work again (server/http/idempotency.ts).
   * A request without the header still runs (older clients); the shared client always sends one.
   */
  idempotent?: true;
  /**
   * The call moves money (a payment, a top-up, a withdrawal, their reviews): its Idempotency-Key is required, a request
   * without one is a 400 and runs nothing, so a repeated request can never pay twice. Needs `idempotent`.
   */
  movesMoney?: true;
  /**
   * A bulk edit: one set-based write over many of the tenant's rows. It runs one at a time per tenant and with a
   * bounded number over all tenants (waiting in the process, not on a connection: admission.ts), with a longer
   * statement time, and it is retried when the database chose it as a deadlock's victim (it only writes the database).
   */
  bulk?: true;
  /**
   * Work before the call's transaction opens (the caller's token checked, the input validated), such as reads from
   * Mercado Libre, which never run inside a transaction: it may open short transactions of its own, and the handler
   * finds what it stored in the database. Replays of an idempotent call run it again.
   */
  beforeTransaction?: (
    call: Omit<CallContext, "tx" | "user">,
    input: { query: z.output<Q>; body: z.output<B>; params: z.output<P> },
  ) => Promise<void>;
  /**
   * Runs once the call's transaction has ended, whatever came of it (committed, rolled back, a replay, refused before
   * it opened), before the answer is sent: beforeTransaction's writes that only the transaction makes real are undone
   * here when it did not. Its failure is logged, not answered.
   */
  afterTransaction?: (call: Omit<CallContext, "tx" | "user">) => Promise<void>;
  handler: (ctx: CallContext, input: { query: z.output<Q>; body: z.output<B>; params: z.output<P> }) => Promise<R>;
};

export type RegisteredCall = {
  group: string;
  name: string;
  method: string;
  url: string;
  access: Access;
  hasQuery: boolean;
  hasBody: boolean;
  hasParams: boolean;
  idempotent: boolean;
  movesMoney: boolean;
  bulk: boolean;
  /** The shared declaration the call was registered against (shared/api), for the coverage test. */
  declared: DeclaredCall<any, any, any, any>;
};

type Out<S> = S extends z.ZodType ? z.output<S> : {};
/** A declared call's validated input, as its handler receives it. */
type InputOf<D> =
  D extends DeclaredCall<infer Q, infer B, infer P, any>
    ? { query: Out<Q>; body: B extends z.ZodType ? z.output<B> : undefined; params: Out<P> }
    : never;

/** What the server adds to a call's shared declaration: how it runs. */
type CallImpl<D> = {
  /** See RunDef.multipart: the declaration's body is the client's FormData, which the server reads as a stream. */
  multipart?: { fileSizeBytes: number };
  bulk?: true;
  beforeTransaction?: (call: Omit<CallContext, "tx" | "user">, input: InputOf<D>) => Promise<void>;
  afterTransaction?: (call: Omit<CallContext, "tx" | "user">) => Promise<void>;
  handler: (ctx: CallContext, input: InputOf<D>) => Promise<unknown>;
};

export type Registrar = {
  /** Registers the handler of a call declared in shared/api (`call({...})`): path, access and schemas come from it. */
  handle<D extends DeclaredCall<any, any, any, any>>(declared: D, impl: CallImpl<D>): void;
};

/**
 * A handler's answer that is not JSON (a page for a browser): `send` runs once the call's transaction has committed,
 * outside it, so it may call other services and open transactions of its own, and it writes the reply itself.
 */
export class AfterCommit {
  constructor(readonly send: (reply: FastifyReply) => Promise<unknown>) {}
}

/**
 * A handler's result already serialized as JSON text (a hot list whose rows PostgreSQL builds as JSON): sent as the
 * answer's `result` without parsing and serializing it again. The text must be what JSON.stringify of the result gives.
 */
export class JsonText {
  constructor(readonly json: string) {}
}

/** The 200 answer's body: {"result": …}. */
const answerBody = (answer: unknown) => (answer instanceof JsonText ? `{"result":${answer.json}}` : JSON.stringify({ result: answer }));

class CommittedFailure {
  constructor(readonly error: AppError) {}
}

/** A keyed call's answer as recorded: sent as is, the first time and again for a retry with the same key. */
class Recorded {
  constructor(
    readonly answer: RecordedAnswer,
    readonly replayed: boolean,
  ) {}
}

const idempotentCallDescription =
  "Takes an Idempotency-Key header (1-255 visible ASCII characters): the same key and request within 24 hours answers the " +
  "first result (header Idempotent-Replayed: true) without doing the work again; the same key with another request is a 422.";
const moneyCallDescription = `Moves money: the Idempotency-Key header is required (400 without it). ${idempotentCallDescription}`;

/** A money call's key, which it cannot run without. */
function requiredKey(req: FastifyRequest): string {
  const key = readIdempotencyKey(req);
  if (!key) {
    throw new AppError(
      400,
      "缺少 Idempotency-Key：涉及资金的操作必须带上请求标识，以免重复扣款",
      "Idempotency.KeyRequired",
      IDEMPOTENCY_HEADER,
    );
  }
  return key;
}

/** The principal read by a call's onRequest hook, reused by its handler. */
const principals = new WeakMap<FastifyRequest, Principal | null>();

function sendsBody(req: FastifyRequest): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** A call with a JSON body takes JSON (or a multipart upload); text/plain, forms and the rest are a 415. */
function acceptedBodyType(contentType: string | undefined): boolean {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return type === "application/json" || type.endsWith("+json") || type === "multipart/form-data";
}

/**
 * What the registrar itself needs: the database its transactions run on, the signer that checks tokens, the admission
 * that gives calls their turn, and how long a call's statements may wait for a lock and run.
 */
export type RegistrarDeps = {
  database: Database;
  tokens: TokenSigner;
  admission: Admission;
  /** The app's workbook reader slots: a multipart call's upload is read in one before its transaction. */
  readSlots: ReadSlots;
  limits: CallLimits;
  /** Check every JSON answer against its declared `result` (tests and development): a drift answers a 500 that says where. */
  checkAnswers: boolean;
};

/** A call's statement limits, and a bulk edit's (its statement may run longer). Defaults in config.ts. */
type CallLimits = { call: TxLimits; bulk: TxLimits };

/** A deadlock's victim or a serialization failure: the transaction rolled back whole, so running it again is safe. */
const retriedStates = new Set(["40P01", "40001"]);
const BULK_ATTEMPTS = 3;

/** The answer as the client receives it (JSON) against the declared result; a mismatch is the server's bug. */
function checkAnswer(def: { group: string; name: string; result?: z.ZodType }, wire: () => unknown) {
  if (!def.result) return;
  const checked = def.result.safeParse(wire());
  if (checked.success) return;
  const issues = checked.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(result)"}: ${i.message}`);
  throw new AppError(500, `${def.group}.${def.name} answered outside its declared result: ${issues.join("; ")}`, "Contract.AnswerMismatch");
}

export function createRegistrar(app: FastifyInstance, deps: RegistrarDeps, registry: RegisteredCall[]): Registrar {
  const registrar: Registrar = {
    handle(declared, impl) {
      registerCall(
        {
          group: declared.group,
          name: declared.name,
          method: declared.method,
          path: declared.path,
          access: declared.access,
          summary: declared.summary,
          query: declared.query,
          body: impl.multipart ? undefined : declared.body,
          params: declared.params,
          result: declared.result,
          idempotent: declared.idempotent,
          movesMoney: declared.movesMoney,
          multipart: impl.multipart,
          bulk: impl.bulk,
          beforeTransaction: impl.beforeTransaction as never,
          afterTransaction: impl.afterTransaction,
          handler: impl.handler as never,
        },
        declared,
      );
    },
  };
  return registrar;

  function registerCall<Q extends AnyObject, B extends z.ZodType, P extends AnyObject, R>(
    def: RunDef<Q, B, P, R>,
    declared: DeclaredCall<any, any, any, any>,
  ) {
    const url = def.path ?? `/api/${def.group}/${def.name}`;
    // A key belongs to a user, and its request hash covers the validated input (a multipart file is not in it).
    if (def.idempotent && (def.access === "anonymous" || def.multipart)) {
      throw new Error(`${url}: an idempotent call needs a logged-in caller and a JSON body`);
    }
    if (def.movesMoney && !def.idempotent) throw new Error(`${url}: a call that moves money is idempotent`);
    registry.push({
      group: def.group,
      name: def.name,
      method: def.method,
      url,
      access: def.access,
      hasQuery: !!def.query,
      hasBody: !!def.body,
      hasParams: !!def.params,
      idempotent: !!def.idempotent,
      movesMoney: !!def.movesMoney,
      bulk: !!def.bulk,
      declared,
    });
    const queryKeys = def.query && "shape" in def.query ? Object.keys((def.query as unknown as z.ZodObject).shape) : [];
    const keyByLower = new Map(queryKeys.map((k) => [k.toLowerCase(), k]));
    const route: RouteOptions = {
      method: def.method,
      url,
      // Who may call comes before what was sent (ABP runs authorization before model validation): a caller without a
      // token gets 401 and a caller without the right gets 403, never a validation answer describing the call.
      onRequest: async (req) => {
        const principal = await readPrincipal(req, deps.tokens);
        if (!principal && def.access !== "anonymous") throw unauthorized();
        if (principal && def.access === "main" && !(principal.isMainAccount && principal.tenantId !== null)) {
          throw forbidden("仅主账号可以执行此操作");
        }
        if (principal && def.access === "host" && !principal.isHost) throw forbidden("仅平台管理员可以执行此操作");
        if (def.body && sendsBody(req) && !acceptedBodyType(req.headers["content-type"])) throw unsupportedMediaType();
        principals.set(req, principal);
      },
      schema: {
        tags: [def.group],
        operationId: `${def.group}_${def.name}`,
        // Who may call it (anonymous, user, main, host), for a reader of the document and for tools driven by it
        // (bench/fuzz.ts); the document generator copies x- keys as they are.
        ...{ "x-access": def.access },
        summary: def.summary,
        ...(def.idempotent ? { description: def.movesMoney ? moneyCallDescription : idempotentCallDescription } : {}),
        ...(def.access === "anonymous" ? {} : { security: [{ bearer: [] }] }),
        ...(def.query ? { querystring: def.query } : {}),
        ...(def.body ? { body: def.body } : {}),
        ...(def.params ? { params: def.params } : {}),
        ...(def.result ? { response: { 200: z.object({ result: def.result }) } } : {}),
      },
      // Query names match case-insensitively, as ABP's model binding does.
      preValidation: keyByLower.size
        ? async (req) => {
            const q = req.query as Record<string, unknown>;
            const out: Record<string, unknown> = {};
            for (const [k, v] of Object.entries(q)) out[keyByLower.get(k.toLowerCase()) ?? k] = v;
            req.query = out;
          }
        : undefined,
      // Everything the call does, after its transaction too, works for a user waiting at the screen.
      handler: (req, reply) =>
        whileUserWaits(async () => {
          const principal = principals.get(req) ?? null; // read and checked by onRequest
          const key = def.movesMoney ? requiredKey(req) : def.idempotent ? readIdempotencyKey(req) : null;
          // Only what the call's schemas validated: a body sent to a call that takes none is neither its input nor hashed.
          const input = {
            query: (def.query ? req.query : {}) as never,
            body: (def.body ? req.body : undefined) as never,
            params: (def.params ? req.params : {}) as never,
          };
          let tenantId = principal ? (principal.tenantId ?? HOST_TENANT_ID) : HOST_TENANT_ID;
          if (!principal) {
            const hint = tenantHint(req);
            if (hint) tenantId = (await resolveTenant(deps.database, hint)).id;
          }
          // The file is received and read before the transaction opens, so a slow upload holds no connection.
          if (def.multipart) await receiveUploadBeforeTransaction(req, def.multipart.fileSizeBytes, deps.readSlots);
          if (def.beforeTransaction) await def.beforeTransaction({ req, reply, principal, tenantId }, input);
          const after = async () => {
            await def.afterTransaction?.({ req, reply, principal, tenantId }).catch((err: unknown) => {
              req.log.warn({ err }, "the call's work after its transaction failed");
            });
          };
          const scope: Scope = def.access === "host" ? hostAllScope : { tenantId };
          const leave = await deps.admission.enter(scope.hostAll ? "host" : tenantId, !!def.bulk).catch(async (err: unknown) => {
            await after();
            throw err;
          });
          const limits = def.bulk ? deps.limits.bulk : deps.limits.call;
          const attempts = def.bulk ? BULK_ATTEMPTS : 1;
          const run = () =>
            inScope(
              deps.database.db,
              scope,
              async (tx, session) => {
                const user = principal ? sessionUserOf(session, principal) : null;
                if (def.access === "main" && !(user?.isMainAccount && user.tenantId !== HOST_TENANT_ID)) {
                  throw forbidden("仅主账号可以执行此操作");
                }
                if (def.access === "host" && !user?.isHost) throw forbidden("仅平台管理员可以执行此操作");
                const owner: KeyOwner | null = key && principal ? { tenantId, userId: principal.userId, key } : null;
                if (owner) {
                  const first = await claimIdempotencyKey(tx, owner, requestHash({ method: def.method, url }, input));
                  if (first) return new Recorded(first, true);
                }
                let answer: unknown;
                try {
                  answer = await def.handler({ tx, req, reply, principal, user, tenantId }, input);
                } catch (err) {
                  // keepChanges(): commit what the call wrote, then answer the error.
                  if (!(err instanceof AppError && err.commitFirst)) throw err;
                  if (owner) await recordIdempotentAnswer(tx, owner, { status: err.status, body: JSON.stringify(errorBody(err)) });
                  return new CommittedFailure(err);
                }
                if (!owner) return answer;
                if (answer instanceof AfterCommit || reply.sent) throw new Error(`${url}: an idempotent call answers JSON`);
                const recorded = answer === undefined ? { status: 204, body: "" } : { status: 200, body: answerBody(answer) };
                await recordIdempotentAnswer(tx, owner, recorded);
                return new Recorded(recorded, false);
              },
              limits,
              principal ? sessionQuery(principal) : undefined,
            );
          let result: unknown;
          try {
            for (let attempt = 1; ; attempt++) {
              try {
                result = await run();
                break;
              } catch (err) {
                const state = sqlState(err) ?? "";
                if (attempt >= attempts || !retriedStates.has(state)) throw err;
                req.log.warn({ sqlState: state, attempt }, "bulk call retried: the database rolled it back as a deadlock's victim");
              }
            }
          } finally {
            leave();
            await after();
          }
          if (deps.checkAnswers) {
            if (result instanceof Recorded && result.answer.status === 200) {
              const recorded = result.answer.body;
              checkAnswer(def, () => (JSON.parse(recorded) as { result: unknown }).result);
            } else if (result instanceof JsonText) checkAnswer(def, () => JSON.parse(result.json));
            else if (
              result !== undefined &&
              !(result instanceof AfterCommit || result instanceof CommittedFailure || result instanceof Recorded)
            ) {
              if (!reply.sent) checkAnswer(def, () => JSON.parse(JSON.stringify(result)));
            }
          }
          if (result instanceof Recorded) return sendRecordedAnswer(reply, result.answer, result.replayed);
          if (result instanceof CommittedFailure) throw result.error;
          if (result instanceof AfterCommit) {
            await result.send(reply);
            return reply;
          }
          if (reply.sent) return reply;
          if (result === undefined) return reply.code(204).send();
          if (result instanceof JsonText) return reply.type("application/json; charset=utf-8").send(answerBody(result));
          return reply.send({ result });
        }),
    };
    if (def.multipart) {
      const fileSize = def.multipart.fileSizeBytes;
      app.register(async (child) => {
        await child.register(multipart, { limits: { fileSize, files: 1, fields: 10, parts: 11, headerPairs: 200 } });
        child.route(route);
      });
    } else {
      app.route(route);
    }
  }
}

/** The tenant named by a `__tenant` header on an anonymous call; unknown or inactive is 404 公司未找到. */
async function resolveTenant(database: Database, hint: string): Promise<TenantRow> {
  const tenant = await inScope(database.db, hostAllScope, (tx) => findTenant(tx, hint));
  if (!tenant || !tenant.isActive) throw notFound("公司未找到");
  return tenant;
}

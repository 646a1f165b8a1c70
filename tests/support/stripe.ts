/**
 * A stand-in for Stripe in tests, like the OpenID and SMTP stand-ins: a real HTTP server on a free
 * port of 127.0.0.1 that the official `stripe` SDK talks to (`new Stripe(key, { host, port,
 * protocol })` from its `url`), a hosted pay page with Approve / Decline / Abandon, and webhooks
 * signed the way Stripe signs them (`Stripe-Signature: t=…,v1=HMAC-SHA256("t.payload")`), which
 * tests can hold back, reorder, repeat or send late.
 *
 * Only what the store uses is implemented: Checkout Sessions (create, retrieve, expire) and
 * refunds (create, retrieve). Where it answers, it answers as Stripe does: the same statuses, the
 * same error shape and, as far as we know them, the same messages, so the store's error handling
 * is tested against what it will meet. Stripe's rules kept on purpose because they bite in
 * production: `expires_at` must be 30 minutes to 24 hours after creation; an Idempotency-Key
 * replays the first answer for the same parameters (a refused refund included, as Stripe stores
 * the result of every request that ran) and is a 400 `idempotency_error` with other parameters;
 * unknown parameters are a 400; `url` is null once a session is no longer open.
 */
import { createHmac, randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export type StandInSession = Pick<
  Stripe.Checkout.Session,
  | "id"
  | "object"
  | "amount_subtotal"
  | "amount_total"
  | "cancel_url"
  | "client_reference_id"
  | "created"
  | "currency"
  | "customer"
  | "customer_email"
  | "expires_at"
  | "livemode"
  | "metadata"
  | "mode"
  | "payment_intent"
  | "payment_method_types"
  | "payment_status"
  | "status"
  | "success_url"
  | "ui_mode"
  | "url"
>;

export type StandInRefund = Pick<
  Stripe.Refund,
  "id" | "object" | "amount" | "balance_transaction" | "charge" | "created" | "currency" | "metadata" | "payment_intent" | "reason" | "receipt_number" | "status"
> & { failure_reason?: string | null };

/** What the stand-in keeps of a payment made through a session: enough to refund it. */
export interface StandInPaymentIntent {
  id: string;
  chargeId: string;
  amount: number;
  currency: string;
  amountRefunded: number;
  metadata: Record<string, string>;
  sessionId: string;
}

/** Stripe's event envelope (the fields of `Stripe.EventBase`), with any object in `data`. */
export interface StandInEvent {
  id: string;
  object: "event";
  api_version: string | null;
  created: number;
  data: { object: StandInSession | StandInRefund | Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: boolean;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null } | null;
  type: string;
}

export interface Delivery {
  eventId: string;
  type: string;
  url: string | null;
  /** The store's HTTP status; null when there was no answer (no URL, connection refused, closed). */
  status: number | null;
  error?: string;
  /** The store's answer, its first 2000 characters. */
  responseBody: string;
  signature: string;
  startedAt: number;
  finishedAt: number;
}

export interface DeliverOptions {
  /** Wait this long before sending (a late event). */
  delayMs?: number;
  /** Send to this URL instead of the webhook URL (e.g. a second instance of the store). */
  url?: string;
  /** Sign with this Unix time (seconds) instead of now: an old one makes a replay the SDK refuses (tolerance 300 s). */
  timestamp?: number;
  /** Sign with this secret instead of the webhook secret: a forged event. */
  secret?: string;
}

export interface ApiRequestRecord {
  method: string;
  path: string;
  params: Record<string, unknown>;
  idempotencyKey: string | null;
  status: number;
  /** True when the answer was replayed for a repeated Idempotency-Key. */
  replayed: boolean;
}

export interface StripeStandInOptions {
  webhookUrl?: string;
  webhookSecret: string;
  /** The API key the stand-in accepts; a random `sk_test_…` when not given. */
  secretKey?: string;
  /** Event types delivered to the webhook URL, like an endpoint's `enabled_events`; default ["*"] (all: the session events and `refund.created`). */
  enabledEvents?: string[];
}

export interface StripeStandIn {
  /** Base URL, for STRIPE_API_URL. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  readonly webhookUrl: string | undefined;
  setWebhookUrl(url: string | undefined): void;
  /** Every session by id; the objects are the stand-in's own (changing them changes what it answers). */
  sessions: Map<string, StandInSession>;
  paymentIntents: Map<string, StandInPaymentIntent>;
  refunds: StandInRefund[];
  /** Every event made, in order. */
  events: StandInEvent[];
  /** Every delivery attempt once answered (or failed), in the order they finished. */
  deliveries: Delivery[];
  /** Every API request, in order. */
  requests: ApiRequestRecord[];
  /** The hosted page of a session (also its `url` while open). */
  payUrl(sessionId: string): string;
  /**
   * Pays a session without the page: `complete`/`paid`, a payment intent, and a
   * `checkout.session.completed` event. `amountTotal`/`currency` make the payment (and the event)
   * differ from what the session asked; `force` pays a session that is no longer open (a payment
   * that raced an expiry). Resolves with the event once the store has answered its delivery, or
   * once it is queued while deliveries are held.
   */
  complete(sessionId: string, options?: { amountTotal?: number; currency?: string; force?: boolean }): Promise<StandInEvent>;
  /** Expires an open session with a `checkout.session.expired` event; resolves as `complete` does. */
  expire(sessionId: string): Promise<StandInEvent>;
  /** Delivers an event made before again (Stripe's duplicate delivery). While held, resolves only after release(). */
  resend(eventId: string, options?: DeliverOptions): Promise<Delivery>;
  /** Delivers any event (see makeEvent). While held (and without delayMs), resolves only after release(). */
  deliver(event: StandInEvent, options?: DeliverOptions): Promise<Delivery>;
  /** Makes (and records in `events`) an event of `type` carrying a copy of `object`, without delivering it. */
  makeEvent(type: string, object: StandInEvent["data"]["object"]): StandInEvent;
  /** The Stripe-Signature header for a payload. */
  sign(payload: string, options?: { timestamp?: number; secret?: string }): string;
  /** Queues deliveries from now on, until release(). */
  hold(): void;
  /** The events queued by hold(), in the order they were queued. */
  readonly held: readonly StandInEvent[];
  /**
   * Delivers the queued events one after another, in `order` (event ids, or positions in `held`;
   * an id repeated for a queued duplicate takes the next copy), then the rest in queue order, and
   * stops holding. Resolves with their deliveries.
   */
  release(order?: (string | number)[]): Promise<Delivery[]>;
  /** Drops the queued deliveries (a webhook lost for good); they resolve with status null. */
  discardHeld(): void;
  /** Resolves when no delivery is in flight or waiting on a delay (held ones excepted). */
  idle(): Promise<void>;
  /** From now on refunds are refused with a 400 `invalid_request_error` carrying `message` and `code`; null accepts them again. */
  refuseRefunds(message: string | null, code?: string): void;
  /**
   * The status new refunds are created with: `succeeded` (the default), `pending` (the bank has not
   * answered yet; settle it with settleRefund) or `failed` (created, then failed at once, with a
   * `refund.failed` event).
   */
  refundStatus(status: "succeeded" | "pending" | "failed"): void;
  /** Moves a refund to `succeeded` or `failed` as the bank answers: `refund.updated`, then `charge.refunded` or `refund.failed`. */
  settleRefund(refundId: string, status: "succeeded" | "failed", failureReason?: string): Promise<StandInEvent[]>;
  /**
   * Makes the next `times` API requests matching `method` and `path` (a prefix such as
   * "/v1/refunds") fail: `error-before` answers 500 without running it; `error-after` runs it
   * (an Idempotency-Key keeps its result) and answers 500; `refuse-before` answers a 400
   * `invalid_request_error` without running it; `drop-after` runs it and closes the
   * connection unanswered; `hang` neither runs nor answers until `releaseHung()` (then the
   * connection is closed unanswered). Returns a function that cancels what is left.
   */
  failRequests(match: { method?: string; path: string }, mode: "error-before" | "error-after" | "drop-after" | "hang" | "refuse-before", times?: number): () => void;
  /** Closes every connection `hang` holds, unanswered; the requests never ran. */
  releaseHung(): void;
  close(): Promise<void>;
}

/** A Stripe API error: the status and the `{ error }` body Stripe answers. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: { type: string; code?: string; param?: string; message: string },
    /** Whether an Idempotency-Key keeps this answer: Stripe keeps the results of requests that ran, not of those refused before. */
    readonly ran = false,
  ) {
    super(error.message);
  }
}

const invalid = (message: string, extra: { code?: string; param?: string } = {}, status = 400) =>
  new ApiError(status, { type: "invalid_request_error", ...extra, message });

const missing = (param: string) => invalid(`Missing required param: ${param}.`, { code: "parameter_missing", param });

// Stripe answers an object's id with a prefix and ~24 random characters (test mode ids carry "test" for sessions).
const newId = (prefix: string) => `${prefix}_${randomBytes(18).toString("base64url").replace(/[-_]/g, "x")}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

const FORBIDDEN_KEYS = new Set(["__proto__", "prototype", "constructor"]);

/**
 * Parses Stripe's form bodies: `a[b][0][c]=v` bracket notation (as the SDK's own encoder writes
 * it, like `qs`). `qs` is not installed here (only its types are), so this is our own, small one:
 * objects whose keys are all indexes become arrays; every value stays a string.
 */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  if (body === "") return root;
  for (const pair of body.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, " "));
      } catch {
        throw invalid(`Invalid form encoding: ${s}`);
      }
    };
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? "" : decode(pair.slice(eq + 1));
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match?.[1]) throw invalid(`Invalid parameter name: ${key}`);
    const path = [match[1], ...[...(match[2] ?? "").matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? "")];
    if (path.some((segment) => FORBIDDEN_KEYS.has(segment))) throw invalid(`Invalid parameter name: ${key}`);
    let node = root;
    for (let i = 0; i < path.length; i++) {
      let segment = path[i] ?? "";
      if (segment === "") segment = String(Object.keys(node).length); // `a[]=x` appends
      if (i === path.length - 1) {
        node[segment] = value;
      } else {
        const next = node[segment];
        if (typeof next === "object" && next !== null) node = next as Record<string, unknown>;
        else {
          const created: Record<string, unknown> = {};
          node[segment] = created;
          node = created;
        }
      }
    }
  }
  const arraysOut = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) {
      return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => arraysOut(v));
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, arraysOut(v)]));
  };
  return arraysOut(root) as Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function str(params: Record<string, unknown>, name: string, param = name): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw invalid(`Invalid string: ${param}`, { code: "parameter_invalid_string", param });
  return value;
}

function int(params: Record<string, unknown>, name: string, param = name): number | undefined {
  const value = str(params, name, param);
  if (value === undefined || value === "") return undefined;
  if (!/^-?\d+$/.test(value)) throw invalid(`Invalid integer: ${value}`, { code: "parameter_invalid_integer", param });
  return Number(value);
}

function url(params: Record<string, unknown>, name: string): string | null {
  const value = str(params, name);
  if (value === undefined || value === "") return null;
  // Stripe checks the URL before the template is filled in; `{CHECKOUT_SESSION_ID}` must not make it invalid.
  if (!URL.canParse(value.replaceAll("{CHECKOUT_SESSION_ID}", "x"))) throw invalid("Not a valid URL", { code: "url_invalid", param: name });
  return value;
}

/** Stripe's metadata rules: string values, keys up to 40 characters, values up to 500, at most 50 keys; "" unsets a key. */
function metadata(params: Record<string, unknown>, name: string, param = name): Record<string, string> {
  const value = params[name];
  if (value === undefined || value === "") return {};
  if (!isRecord(value)) throw invalid(`Invalid object`, { code: "parameter_invalid_object", param });
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string") throw invalid(`Invalid string: ${param}[${k}]`, { code: "parameter_invalid_string", param: `${param}[${k}]` });
    if (k.length > 40) throw invalid(`Metadata keys can have up to 40 characters; "${k}" has ${k.length}.`, { param: `${param}[${k}]` });
    if (v.length > 500) throw invalid(`Metadata values can have up to 500 characters, but you passed in a value that is ${v.length} characters.`, { param: `${param}[${k}]` });
    if (v !== "") out[k] = v;
  }
  if (Object.keys(out).length > 50) throw invalid("You can have at most 50 metadata keys.", { param });
  return out;
}

function rejectUnknown(params: Record<string, unknown>, known: readonly string[]) {
  for (const key of Object.keys(params)) {
    if (!known.includes(key)) throw invalid(`Received unknown parameter: ${key}`, { code: "parameter_unknown", param: key });
  }
}

// Parameters a session may be created with: the first are implemented, the rest are real ones accepted and ignored.
const SESSION_PARAMS = [
  "mode",
  "line_items",
  "success_url",
  "cancel_url",
  "client_reference_id",
  "metadata",
  "payment_intent_data",
  "expires_at",
  "customer_email",
  "expand",
  "locale",
  "payment_method_types",
  "submit_type",
  "billing_address_collection",
  "phone_number_collection",
  "allow_promotion_codes",
  "automatic_tax",
  "custom_text",
  "ui_mode",
] as const;
const REFUND_PARAMS = ["payment_intent", "charge", "amount", "metadata", "reason", "expand"] as const;
// Stripe's minimum charge per currency, in its smallest unit (the ones a test is likely to use).
const MINIMUM_AMOUNT: Record<string, number> = { usd: 50, eur: 50, gbp: 30, cad: 50, aud: 50, chf: 50 };

function formatMoney(amount: number, currency: string): string {
  const format = new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() });
  const exponent = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** exponent);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Canonical JSON (sorted keys): two requests carry the same parameters when these are equal. */
function fingerprint(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(fingerprint).join(",")}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${fingerprint(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

interface LineItem {
  name: string;
  quantity: number;
  unitAmount: number;
}

interface Queued {
  event: StandInEvent;
  options: DeliverOptions;
  resolve: (delivery: Delivery) => void;
}

export async function startStripeStandIn(options: StripeStandInOptions): Promise<StripeStandIn> {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(16).toString("hex")}`;
  const { webhookSecret } = options;
  const enabledEvents = options.enabledEvents ?? ["*"];
  let webhookUrl = options.webhookUrl;
  let base = "";

  const sessions = new Map<string, StandInSession>();
  const lineItems = new Map<string, LineItem[]>();
  const paymentIntentData = new Map<string, Record<string, string>>();
  const paymentIntents = new Map<string, StandInPaymentIntent>();
  const refunds: StandInRefund[] = [];
  const events: StandInEvent[] = [];
  const deliveries: Delivery[] = [];
  const requests: ApiRequestRecord[] = [];
  const idempotent = new Map<string, { method: string; path: string; fingerprint: string; status: number; body: string }>();
  let refusal: { message: string; code: string } | null = null;
  let newRefundStatus: "succeeded" | "pending" | "failed" = "succeeded";
  interface FailureRule {
    method: string | undefined;
    path: string;
    mode: "error-before" | "error-after" | "drop-after" | "hang" | "refuse-before";
    left: number;
  }
  let failures: FailureRule[] = [];
  const hung = new Set<ServerResponse>();
  const takeFailure = (method: string, path: string): FailureRule["mode"] | undefined => {
    const rule = failures.find((r) => r.left > 0 && (r.method === undefined || r.method === method) && path.startsWith(r.path));
    if (!rule) return undefined;
    rule.left -= 1;
    return rule.mode;
  };

  let holding = false;
  let queue: Queued[] = [];
  let closed = false;
  const inFlight = new Set<Promise<unknown>>();
  const controllers = new Set<AbortController>();

  const sign = (payload: string, opts: { timestamp?: number; secret?: string } = {}) => {
    const t = opts.timestamp ?? nowSeconds();
    const v1 = createHmac("sha256", opts.secret ?? webhookSecret).update(`${t}.${payload}`, "utf8").digest("hex");
    return `t=${t},v1=${v1}`;
  };

  const makeEvent = (type: string, object: StandInEvent["data"]["object"], request: StandInEvent["request"] = { id: null, idempotency_key: null }): StandInEvent => {
    const event: StandInEvent = {
      id: newId("evt_test"),
      object: "event",
      api_version: Stripe.API_VERSION,
      created: nowSeconds(),
      // A copy: the event shows the object as it was when the event happened.
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request,
      type,
    };
    events.push(event);
    return event;
  };

  const failed = (event: StandInEvent, target: string | null, error: string, signature = ""): Delivery => {
    const delivery: Delivery = { eventId: event.id, type: event.type, url: target, status: null, error, responseBody: "", signature, startedAt: Date.now(), finishedAt: Date.now() };
    deliveries.push(delivery);
    return delivery;
  };

  /** One POST of an event to the store, awaiting its answer. */
  const send = (event: StandInEvent, opts: DeliverOptions): Promise<Delivery> => {
    const target = opts.url ?? webhookUrl ?? null;
    if (closed) return Promise.resolve(failed(event, target, "stand-in closed"));
    if (!target) return Promise.resolve(failed(event, null, "no webhook URL"));
    // Stripe sends pretty-printed JSON: a store that re-serializes the parsed body instead of verifying the raw one fails.
    const payload = JSON.stringify(event, null, 2);
    const signature = sign(payload, { timestamp: opts.timestamp, secret: opts.secret });
    const controller = new AbortController();
    controllers.add(controller);
    const startedAt = Date.now();
    return new Promise<Delivery>((resolve) => {
      let finished = false;
      const finish = (status: number | null, responseBody: string, error?: string) => {
        if (finished) return;
        finished = true;
        controllers.delete(controller);
        const delivery: Delivery = { eventId: event.id, type: event.type, url: target, status, responseBody: responseBody.slice(0, 2000), signature, startedAt, finishedAt: Date.now() };
        if (error !== undefined) delivery.error = error;
        deliveries.push(delivery);
        resolve(delivery);
      };
      const req = httpRequest(
        target,
        {
          method: "POST",
          agent: false,
          signal: controller.signal,
          timeout: 30_000,
          headers: {
            "content-type": "application/json; charset=utf-8",
            "content-length": Buffer.byteLength(payload),
            "stripe-signature": signature,
            "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => finish(res.statusCode ?? null, Buffer.concat(chunks).toString("utf8")));
          res.on("error", (error) => finish(res.statusCode ?? null, Buffer.concat(chunks).toString("utf8"), error.message));
        },
      );
      req.on("timeout", () => req.destroy(new Error("timed out after 30 s")));
      req.on("error", (error) => finish(null, "", closed ? "stand-in closed" : error.message));
      req.end(payload);
    });
  };

  const track = <T>(promise: Promise<T>) => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
    return promise;
  };

  /** Delivers now, after a delay, or queues while held; `queued` says which. */
  const dispatch = (event: StandInEvent, opts: DeliverOptions = {}): { queued: boolean; done: Promise<Delivery> } => {
    if (opts.delayMs !== undefined && opts.delayMs > 0) {
      const delay = opts.delayMs;
      const controller = new AbortController();
      controllers.add(controller);
      let fire: (delivery: Promise<Delivery>) => void = () => undefined;
      const done = new Promise<Delivery>((resolve) => (fire = resolve));
      // idle() waits for the delay, then for the send it starts (not for a release if held by then).
      track(
        new Promise<void>((timerDone) => {
          const timer = setTimeout(() => {
            controllers.delete(controller);
            fire(dispatch(event, { ...opts, delayMs: 0 }).done);
            timerDone();
          }, delay);
          controller.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            fire(Promise.resolve(failed(event, opts.url ?? webhookUrl ?? null, "stand-in closed")));
            timerDone();
          });
        }),
      );
      return { queued: false, done };
    }
    if (holding) {
      return { queued: true, done: new Promise<Delivery>((resolve) => queue.push({ event, options: opts, resolve })) };
    }
    return { queued: false, done: track(send(event, opts)) };
  };

  const subscribed = (type: string) => enabledEvents.includes("*") || enabledEvents.includes(type);

  /** An event of the stand-in's own making: delivered only if the endpoint listens for its type. */
  const emit = (type: string, object: StandInEvent["data"]["object"], request?: StandInEvent["request"]) => {
    const event = makeEvent(type, object, request);
    return { event, ...(subscribed(type) ? dispatch(event) : { queued: false, done: null }) };
  };

  const payUrl = (id: string) => `${base}/pay/${id}`;

  const completeSession = (session: StandInSession, opts: { amountTotal?: number; currency?: string } = {}) => {
    const amount = opts.amountTotal ?? session.amount_total ?? 0;
    const currency = (opts.currency ?? session.currency ?? "usd").toLowerCase();
    const intent: StandInPaymentIntent = {
      id: newId("pi"),
      chargeId: newId("ch"),
      amount,
      currency,
      amountRefunded: 0,
      metadata: paymentIntentData.get(session.id) ?? {},
      sessionId: session.id,
    };
    paymentIntents.set(intent.id, intent);
    Object.assign(session, { status: "complete", payment_status: "paid", payment_intent: intent.id, amount_total: amount, currency, url: null } satisfies Partial<StandInSession>);
    return emit("checkout.session.completed", session);
  };

  const expireSession = (session: StandInSession, request?: StandInEvent["request"]) => {
    Object.assign(session, { status: "expired", url: null } satisfies Partial<StandInSession>);
    return emit("checkout.session.expired", session, request);
  };

  // ---- REST ----

  const createSession = (params: Record<string, unknown>): StandInSession => {
    rejectUnknown(params, SESSION_PARAMS);
    const mode = str(params, "mode");
    if (mode === undefined || mode === "") throw missing("mode");
    if (mode !== "payment") throw invalid(`The stand-in implements mode "payment" only, not "${mode}".`, { param: "mode" });
    const items = params.line_items;
    if (items === undefined || (Array.isArray(items) && items.length === 0)) throw invalid("You must provide at least one line item in `payment` mode.", { code: "parameter_missing", param: "line_items" });
    if (!Array.isArray(items)) throw invalid("Invalid array", { code: "parameter_invalid_array", param: "line_items" });
    let currency: string | undefined;
    const parsed: LineItem[] = items.map((raw, i) => {
      const at = `line_items[${i}]`;
      if (!isRecord(raw)) throw invalid("Invalid object", { code: "parameter_invalid_object", param: at });
      rejectUnknown(raw, ["quantity", "price_data", "price", "adjustable_quantity", "tax_rates"]);
      if (raw.price !== undefined) throw invalid(`No such price: '${String(raw.price)}'`, { code: "resource_missing", param: `${at}[price]` });
      const priceData = raw.price_data;
      if (!isRecord(priceData)) throw invalid(`You must specify either \`price\` or \`price_data\` in ${at}.`, { code: "parameter_missing", param: `${at}[price_data]` });
      const quantity = int(raw, "quantity", `${at}[quantity]`);
      if (quantity === undefined) throw invalid(`Quantity is required. Add \`quantity\` to \`${at}\``, { code: "parameter_missing", param: `${at}[quantity]` });
      if (quantity < 1) throw invalid("This value must be greater than or equal to 1.", { code: "parameter_invalid_integer", param: `${at}[quantity]` });
      const itemCurrency = str(priceData, "currency", `${at}[price_data][currency]`)?.toLowerCase();
      if (!itemCurrency) throw missing(`${at}[price_data][currency]`);
      if (!/^[a-z]{3}$/.test(itemCurrency)) throw invalid(`Invalid currency: ${itemCurrency}.`, { code: "parameter_invalid_string", param: `${at}[price_data][currency]` });
      if (currency !== undefined && currency !== itemCurrency) throw invalid("All line items must have the same currency.", { param: `${at}[price_data][currency]` });
      currency = itemCurrency;
      const unitAmount = int(priceData, "unit_amount", `${at}[price_data][unit_amount]`);
      if (unitAmount === undefined) throw missing(`${at}[price_data][unit_amount]`);
      if (unitAmount < 0) throw invalid("This value must be greater than or equal to 0.", { code: "parameter_invalid_integer", param: `${at}[price_data][unit_amount]` });
      const product = priceData.product_data;
      const name = isRecord(product) ? str(product, "name", `${at}[price_data][product_data][name]`) : undefined;
      if (!name) throw missing(`${at}[price_data][product_data][name]`);
      return { name, quantity, unitAmount };
    });
    const amount = parsed.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
    const sessionCurrency = currency ?? "usd";
    const minimum = MINIMUM_AMOUNT[sessionCurrency];
    if (minimum !== undefined && amount < minimum) {
      throw invalid(`The Checkout Session's total amount due must add up to at least ${formatMoney(minimum, sessionCurrency)} ${sessionCurrency}`, { param: "line_items" });
    }
    const created = nowSeconds();
    const expiresAt = int(params, "expires_at") ?? created + 24 * 3600;
    // Stripe measures from the session's creation; the few seconds allowed keep a `now + 30 min` computed just before the call valid.
    if (expiresAt < created + 30 * 60 - 5) throw invalid("The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.", { param: "expires_at" });
    if (expiresAt > created + 24 * 3600) throw invalid("The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.", { param: "expires_at" });
    const clientReferenceId = str(params, "client_reference_id") || null;
    if (clientReferenceId !== null && clientReferenceId.length > 200) throw invalid("client_reference_id must be at most 200 characters.", { param: "client_reference_id" });
    const intentData = params.payment_intent_data;
    if (intentData !== undefined && !isRecord(intentData)) throw invalid("Invalid object", { code: "parameter_invalid_object", param: "payment_intent_data" });
    const intentMetadata = intentData ? metadata(intentData, "metadata", "payment_intent_data[metadata]") : {};
    const id = newId("cs_test");
    const session: StandInSession = {
      id,
      object: "checkout.session",
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: url(params, "cancel_url"),
      client_reference_id: clientReferenceId,
      created,
      currency: sessionCurrency,
      customer: null,
      customer_email: str(params, "customer_email") || null,
      expires_at: expiresAt,
      livemode: false,
      metadata: metadata(params, "metadata"),
      mode: "payment",
      payment_intent: null,
      payment_method_types: ["card"],
      payment_status: "unpaid",
      status: "open",
      success_url: url(params, "success_url"),
      ui_mode: "hosted_page",
      url: payUrl(id),
    };
    sessions.set(id, session);
    lineItems.set(id, parsed);
    paymentIntentData.set(id, intentMetadata);
    return session;
  };

  const sessionOr404 = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw invalid(`No such checkout.session: '${id}'`, { code: "resource_missing", param: "session" }, 404);
    return session;
  };

  const createRefund = (params: Record<string, unknown>, request: StandInEvent["request"]): StandInRefund => {
    rejectUnknown(params, REFUND_PARAMS);
    const intentId = str(params, "payment_intent");
    if (params.charge !== undefined) throw invalid("The stand-in refunds by `payment_intent` only.", { param: "charge" });
    if (!intentId) throw invalid("One of the following params should be provided for this request: payment_intent or charge.", { code: "parameter_missing" });
    const intent = paymentIntents.get(intentId);
    if (!intent) throw invalid(`No such payment_intent: '${intentId}'`, { code: "resource_missing", param: "payment_intent" });
    const amount = int(params, "amount");
    if (amount !== undefined && amount < 1) throw invalid("Invalid positive integer", { code: "parameter_invalid_integer", param: "amount" });
    const reason = str(params, "reason") || null;
    if (reason !== null && !["duplicate", "fraudulent", "requested_by_customer"].includes(reason)) {
      throw invalid(`Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer`, { code: "parameter_invalid_string", param: "reason" });
    }
    const meta = metadata(params, "metadata");
    // From here the request "ran": its answer, a refusal included, is what an Idempotency-Key replays.
    if (refusal) throw new ApiError(400, { type: "invalid_request_error", code: refusal.code, message: refusal.message }, true);
    const left = intent.amount - intent.amountRefunded;
    if (left <= 0) throw new ApiError(400, { type: "invalid_request_error", code: "charge_already_refunded", message: `Charge ${intent.chargeId} has already been refunded.` }, true);
    const refundAmount = amount ?? left;
    if (refundAmount > left) {
      throw new ApiError(
        400,
        {
          type: "invalid_request_error",
          code: "amount_too_large",
          param: "amount",
          message: `Refund amount (${formatMoney(refundAmount, intent.currency)}) is greater than unrefunded amount on charge (${formatMoney(left, intent.currency)})`,
        },
        true,
      );
    }
    const failedAtOnce = newRefundStatus === "failed";
    // A pending refund counts against what is left, as Stripe's does; a failed one gives it back.
    if (!failedAtOnce) intent.amountRefunded += refundAmount;
    const refund: StandInRefund = {
      id: newId("re"),
      object: "refund",
      amount: refundAmount,
      balance_transaction: newId("txn"),
      charge: intent.chargeId,
      created: nowSeconds(),
      currency: intent.currency,
      metadata: meta,
      payment_intent: intent.id,
      reason: reason as StandInRefund["reason"],
      receipt_number: null,
      status: newRefundStatus,
      failure_reason: failedAtOnce ? "expired_or_canceled_card" : null,
    };
    refunds.push(refund);
    emit("refund.created", refund, request);
    if (failedAtOnce) emit("refund.failed", refund, request);
    else if (refund.status === "succeeded") emit("charge.refunded", chargeOf(intent), request);
    return refund;
  };

  /** The charge of a payment as Stripe's `charge.refunded` event carries it, its refunds listed. */
  const chargeOf = (intent: StandInPaymentIntent) => ({
    id: intent.chargeId,
    object: "charge",
    amount: intent.amount,
    amount_refunded: intent.amountRefunded,
    currency: intent.currency,
    payment_intent: intent.id,
    metadata: intent.metadata,
    refunded: intent.amountRefunded >= intent.amount,
    refunds: { object: "list", data: refunds.filter((r) => r.payment_intent === intent.id), has_more: false },
  });

  const settleRefund = (refundId: string, status: "succeeded" | "failed", failureReason = "expired_or_canceled_card") => {
    const refund = refunds.find((r) => r.id === refundId);
    if (!refund) throw new Error(`stripe stand-in: no refund ${refundId}`);
    if (refund.status !== "pending") throw new Error(`stripe stand-in: refund ${refundId} is ${refund.status ?? "?"}, not pending`);
    const intent = paymentIntents.get(String(refund.payment_intent));
    const previous = { status: refund.status };
    refund.status = status;
    if (status === "failed") {
      refund.failure_reason = failureReason;
      if (intent) intent.amountRefunded -= refund.amount;
    }
    const updated = makeEvent("refund.updated", refund);
    updated.data.previous_attributes = previous;
    const out = [updated];
    const next = status === "failed" ? makeEvent("refund.failed", refund) : intent ? makeEvent("charge.refunded", chargeOf(intent)) : undefined;
    if (next) out.push(next);
    return out;
  };

  const route = (method: string, path: string, params: Record<string, unknown>, request: StandInEvent["request"]): { status: number; body: unknown } => {
    if (method === "POST" && path === "/v1/checkout/sessions") return { status: 200, body: createSession(params) };
    let m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (m?.[1] && method === "GET") return { status: 200, body: sessionOr404(decodeURIComponent(m[1])) };
    m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (m?.[1] && method === "POST") {
      const session = sessionOr404(decodeURIComponent(m[1]));
      if (session.status !== "open") {
        throw new ApiError(400, { type: "invalid_request_error", message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${session.status}\`.` }, true);
      }
      // Stripe sends the event on its own time, not before answering the call.
      expireSession(session, request);
      return { status: 200, body: session };
    }
    if (method === "POST" && path === "/v1/refunds") return { status: 200, body: createRefund(params, request) };
    if (method === "GET" && path === "/v1/refunds") {
      const intentId = str(params, "payment_intent");
      const limit = int(params, "limit") ?? 10;
      const data = refunds.filter((r) => intentId === undefined || r.payment_intent === intentId).reverse();
      return { status: 200, body: { object: "list", url: "/v1/refunds", has_more: data.length > limit, data: data.slice(0, limit) } };
    }
    m = /^\/v1\/refunds\/([^/]+)$/.exec(path);
    if (m?.[1] && method === "GET") {
      const id = decodeURIComponent(m[1]);
      const refund = refunds.find((r) => r.id === id);
      if (!refund) throw invalid(`No such refund: '${id}'`, { code: "resource_missing", param: "id" }, 404);
      return { status: 200, body: refund };
    }
    throw invalid(`Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`, {}, 404);
  };

  const handleApi = async (req: IncomingMessage, res: ServerResponse, method: string, path: string, query: string) => {
    const requestId = newId("req");
    const answer = (status: number, body: string, extra: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": requestId, "stripe-version": Stripe.API_VERSION, ...extra });
      res.end(body);
    };
    const errorBody = (e: ApiError) => JSON.stringify({ error: { ...e.error, request_log_url: `${base}/logs/${requestId}` } }, null, 2);
    const raw = method === "POST" ? await readBody(req) : query;
    const idempotencyKey = typeof req.headers["idempotency-key"] === "string" ? req.headers["idempotency-key"] : null;
    const record = (params: Record<string, unknown>, status: number, replayed = false) => requests.push({ method, path, params, idempotencyKey, status, replayed });

    // Stripe also takes the key as the Basic user name (as curl -u does).
    const auth = req.headers.authorization ?? "";
    const key = auth.startsWith("Bearer ") ? auth.slice(7) : auth.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString("utf8").split(":")[0] : undefined;
    if (key !== secretKey) {
      const message = key
        ? `Invalid API Key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`
        : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.";
      record({}, 401);
      return answer(401, errorBody(invalid(message, {}, 401)), { "www-authenticate": 'Basic realm="Stripe"' });
    }

    let params: Record<string, unknown>;
    try {
      params = parseStripeForm(raw);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      record({}, e.status);
      return answer(e.status, errorBody(e));
    }

    const failure = takeFailure(method, path);
    if (failure === "hang") {
      hung.add(res);
      return;
    }
    if (failure === "refuse-before") {
      record(params, 400);
      return answer(400, errorBody(invalid("The request was refused (stand-in: injected).", { code: "parameter_invalid_empty" })));
    }
    if (failure === "error-before") {
      record(params, 500);
      return answer(500, errorBody(new ApiError(500, { type: "api_error", message: "An unknown error occurred (stand-in: injected before running)." })));
    }

    const print = fingerprint(params);
    if (method === "POST" && idempotencyKey !== null) {
      const earlier = idempotent.get(idempotencyKey);
      if (earlier) {
        let problem: string | null = null;
        if (earlier.method !== method || earlier.path !== path) {
          problem = `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${earlier.method} ${earlier.path}' vs '${method} ${path}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
        } else if (earlier.fingerprint !== print) {
          problem = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
        }
        if (problem) {
          record(params, 400);
          return answer(400, errorBody(new ApiError(400, { type: "idempotency_error", message: problem })));
        }
        if (failure === "drop-after") {
          record(params, 0, true);
          res.socket?.destroy();
          return;
        }
        if (failure === "error-after") {
          record(params, 500, true);
          return answer(500, errorBody(new ApiError(500, { type: "api_error", message: "An unknown error occurred (stand-in: injected after running)." })));
        }
        record(params, earlier.status, true);
        return answer(earlier.status, earlier.body, { "idempotency-key": idempotencyKey, "idempotent-replayed": "true" });
      }
    }

    let status: number;
    let body: string;
    let keep: boolean;
    try {
      const result = route(method, path, params, { id: requestId, idempotency_key: idempotencyKey });
      status = result.status;
      body = JSON.stringify(result.body, null, 2);
      keep = true;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      status = e.status;
      body = errorBody(e);
      keep = e.ran;
    }
    if (method === "POST" && idempotencyKey !== null && keep) idempotent.set(idempotencyKey, { method, path, fingerprint: print, status, body });
    if (failure === "drop-after") {
      record(params, 0);
      res.socket?.destroy();
      return;
    }
    if (failure === "error-after") {
      record(params, 500);
      return answer(500, errorBody(new ApiError(500, { type: "api_error", message: "An unknown error occurred (stand-in: injected after running)." })));
    }
    record(params, status);
    answer(status, body, idempotencyKey !== null && method === "POST" ? { "idempotency-key": idempotencyKey } : {});
  };

  // ---- The hosted pay page ----

  const page = (res: ServerResponse, status: number, title: string, content: string) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}button{font-size:1rem;padding:.5rem 1rem;margin:.25rem .5rem .25rem 0}[role=alert]{color:#a00;font-weight:bold}</style>
</head>
<body><main>
<h1>${escapeHtml(title)}</h1>
${content}
</main></body>
</html>`);
  };

  const payPage = (res: ServerResponse, session: StandInSession, alert?: string) => {
    const items = lineItems.get(session.id) ?? [];
    const currency = session.currency ?? "usd";
    const total = formatMoney(session.amount_total ?? 0, currency);
    const list = items.map((item) => `<li>${escapeHtml(item.name)} × ${item.quantity}: ${escapeHtml(formatMoney(item.unitAmount * item.quantity, currency))}</li>`).join("\n");
    page(
      res,
      200,
      "Pay with card (Stripe test stand-in)",
      `${alert ? `<p role="alert">${escapeHtml(alert)}</p>` : ""}
<ul aria-label="Items">${list}</ul>
<p>Total: <strong data-testid="amount">${escapeHtml(total)}</strong></p>
<form method="post" action="/pay/${encodeURIComponent(session.id)}">
<button type="submit" name="action" value="approve">Approve</button>
<button type="submit" name="action" value="decline">Decline</button>
<button type="submit" name="action" value="abandon">Abandon</button>
</form>`,
    );
  };

  const closedPage = (res: ServerResponse, session: StandInSession) =>
    page(res, session.status === "complete" ? 200 : 410, session.status === "complete" ? "This payment is complete." : "This payment page has expired.", `<p>Nothing more to do here.</p>`);

  const redirect = (res: ServerResponse, location: string) => {
    res.writeHead(303, { location, "cache-control": "no-store" });
    res.end();
  };

  const handlePay = async (req: IncomingMessage, res: ServerResponse, method: string, id: string) => {
    const session = sessions.get(id);
    if (!session) return page(res, 404, "No such payment page.", "<p>This link is not a payment page.</p>");
    if (method === "GET") return session.status === "open" ? payPage(res, session) : closedPage(res, session);
    if (method !== "POST") return page(res, 405, "Method not allowed.", "");
    const action = new URLSearchParams(await readBody(req)).get("action");
    if (action === "abandon") {
      if (session.cancel_url) return redirect(res, session.cancel_url);
      return page(res, 200, "You left the payment page.", "<p>Nothing was charged.</p>");
    }
    if (session.status !== "open") return closedPage(res, session);
    if (action === "decline") return payPage(res, session, "Your card was declined.");
    if (action !== "approve") return payPage(res, session);
    const { queued, done } = completeSession(session);
    // The customer comes back after the store has heard of the payment, unless a test holds the webhook back to see the other order.
    if (done && !queued) await done;
    if (session.success_url) return redirect(res, session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id));
    page(res, 200, "This payment is complete.", "<p>You can close this page.</p>");
  };

  // ---- Test controls over HTTP, for Playwright workers (other processes than the one that started the stand-in) ----

  const handleControl = async (req: IncomingMessage, res: ServerResponse, method: string, path: string) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const raw = method === "POST" ? await readBody(req) : "";
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = raw === "" ? {} : JSON.parse(raw);
      if (isRecord(parsed)) body = parsed;
    } catch {
      return json(400, { error: "body must be JSON" });
    }
    const num = (name: string) => (typeof body[name] === "number" ? body[name] : undefined);
    const text = (name: string) => (typeof body[name] === "string" ? body[name] : undefined);
    let m0: RegExpExecArray | null;
    try {
      if (method === "GET" && path === "state") {
        return json(200, { sessions: [...sessions.values()], events, deliveries, refunds, held: controls.held.map((e) => e.id), webhookUrl: webhookUrl ?? null });
      }
      if (method === "POST" && path === "webhook-url") {
        webhookUrl = text("url");
        return json(200, { webhookUrl: webhookUrl ?? null });
      }
      if (method === "POST" && path === "refuse-refunds") {
        controls.refuseRefunds(text("message") ?? null, text("code"));
        return json(200, {});
      }
      if (method === "POST" && path === "refund-status") {
        const status = text("status");
        if (status !== "succeeded" && status !== "pending" && status !== "failed") return json(400, { error: "status must be succeeded, pending or failed" });
        controls.refundStatus(status);
        return json(200, {});
      }
      m0 = /^refunds\/([^/]+)\/settle$/.exec(path);
      if (method === "POST" && m0?.[1]) {
        const status = text("status");
        if (status !== "succeeded" && status !== "failed") return json(400, { error: "status must be succeeded or failed" });
        return json(200, await controls.settleRefund(decodeURIComponent(m0[1]), status, text("failureReason")));
      }
      if (method === "POST" && path === "hold") {
        controls.hold();
        return json(200, {});
      }
      if (method === "POST" && path === "release") {
        const order = Array.isArray(body.order) ? body.order.filter((x): x is string | number => typeof x === "string" || typeof x === "number") : [];
        return json(200, await controls.release(order));
      }
      let m = /^sessions\/([^/]+)\/(complete|expire)$/.exec(path);
      if (method === "POST" && m?.[1]) {
        const id = decodeURIComponent(m[1]);
        const event = m[2] === "complete" ? await controls.complete(id, { amountTotal: num("amountTotal"), currency: text("currency"), force: body.force === true }) : await controls.expire(id);
        return json(200, event);
      }
      m = /^events\/([^/]+)\/resend$/.exec(path);
      if (method === "POST" && m?.[1]) return json(200, await controls.resend(decodeURIComponent(m[1]), { delayMs: num("delayMs"), url: text("url"), timestamp: num("timestamp") }));
      return json(404, { error: `no control ${method} ${path}` });
    } catch (error) {
      return json(400, { error: error instanceof Error ? error.message : String(error) });
    }
  };

  const server = createServer((req, res) => {
    const target = new URL(req.url ?? "/", "http://stand-in");
    const method = req.method ?? "GET";
    const pay = /^\/pay\/([^/]+)$/.exec(target.pathname);
    const handled = target.pathname.startsWith("/v1/")
      ? handleApi(req, res, method, target.pathname, target.search.slice(1))
      : target.pathname.startsWith(CONTROL_PREFIX)
        ? handleControl(req, res, method, target.pathname.slice(CONTROL_PREFIX.length))
        : pay?.[1]
        ? handlePay(req, res, method, decodeURIComponent(pay[1]))
        : Promise.resolve(page(res, 404, "Not found.", ""));
    handled.catch((error: unknown) => {
      // A bug of the stand-in: answer as Stripe's 500 so the SDK reports it rather than hanging.
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json", "stripe-should-retry": "false" });
      res.end(JSON.stringify({ error: { type: "api_error", message: `stand-in failure: ${error instanceof Error ? error.stack : String(error)}` } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const openSession = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`stripe stand-in: no session ${id}`);
    return session;
  };

  const eventOutcome = async ({ event, queued, done }: { event: StandInEvent; queued: boolean; done: Promise<Delivery> | null }) => {
    if (done && !queued) await done;
    return event;
  };

  const controls: StripeStandIn = {
    url: base,
    secretKey,
    webhookSecret,
    get webhookUrl() {
      return webhookUrl;
    },
    setWebhookUrl(value) {
      webhookUrl = value;
    },
    sessions,
    paymentIntents,
    refunds,
    events,
    deliveries,
    requests,
    payUrl,
    complete(sessionId, opts = {}) {
      const session = openSession(sessionId);
      if (session.status !== "open" && !opts.force) return Promise.reject(new Error(`stripe stand-in: session ${sessionId} is ${session.status ?? "?"}; pass force: true to pay it anyway`));
      return eventOutcome(completeSession(session, opts));
    },
    expire(sessionId) {
      const session = openSession(sessionId);
      if (session.status !== "open") return Promise.reject(new Error(`stripe stand-in: session ${sessionId} is ${session.status ?? "?"}, not open`));
      return eventOutcome(expireSession(session));
    },
    resend(eventId, opts = {}) {
      const event = events.find((e) => e.id === eventId);
      if (!event) return Promise.reject(new Error(`stripe stand-in: no event ${eventId}`));
      return dispatch(event, opts).done;
    },
    deliver(event, opts = {}) {
      if (!events.includes(event)) events.push(event);
      return dispatch(event, opts).done;
    },
    makeEvent: (type, object) => makeEvent(type, object),
    sign,
    hold() {
      holding = true;
    },
    get held() {
      return queue.map((q) => q.event);
    },
    async release(order = []) {
      const pending = [...queue];
      queue = [];
      holding = false;
      const picked: Queued[] = [];
      for (const which of order) {
        const index = typeof which === "number" ? (pending[which] && !picked.includes(pending[which]) ? which : -1) : pending.findIndex((q) => q.event.id === which && !picked.includes(q));
        const entry = pending[index];
        if (!entry) throw new Error(`stripe stand-in: nothing held for ${String(which)}`);
        picked.push(entry);
      }
      const sequence = [...picked, ...pending.filter((q) => !picked.includes(q))];
      const out: Delivery[] = [];
      for (const entry of sequence) {
        const delivery = await track(send(entry.event, entry.options));
        entry.resolve(delivery);
        out.push(delivery);
      }
      return out;
    },
    discardHeld() {
      for (const entry of queue) entry.resolve(failed(entry.event, entry.options.url ?? webhookUrl ?? null, "discarded"));
      queue = [];
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    refuseRefunds(message, code = "charge_already_refunded") {
      refusal = message === null ? null : { message, code };
    },
    refundStatus(status) {
      newRefundStatus = status;
    },
    async settleRefund(refundId, status, failureReason) {
      const made = settleRefund(refundId, status, failureReason);
      for (const event of made) if (subscribed(event.type)) await dispatch(event).done;
      return made;
    },
    failRequests(match, mode, times = 1) {
      const rule: FailureRule = { method: match.method, path: match.path, mode, left: times };
      failures.push(rule);
      return () => {
        rule.left = 0;
        failures = failures.filter((r) => r !== rule);
      };
    },
    releaseHung() {
      for (const res of hung) res.socket?.destroy();
      hung.clear();
    },
    async close() {
      closed = true;
      for (const res of hung) res.socket?.destroy();
      hung.clear();
      holding = false;
      for (const entry of queue) entry.resolve(failed(entry.event, entry.options.url ?? webhookUrl ?? null, "stand-in closed"));
      queue = [];
      for (const controller of controllers) controller.abort();
      await Promise.allSettled([...inFlight]);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return controls;
}

/** Where the HTTP test controls live under the stand-in's URL. */
export const CONTROL_PREFIX = "/_stand-in/";

/**
 * The test controls of a stand-in started in another process (Playwright's global setup), over
 * its HTTP control surface: each call resolves as the in-process one does (complete/expire once
 * the store has answered the delivery, unless held).
 */
export function stripeStandInControls(url: string) {
  const call = async <T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${CONTROL_PREFIX}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer: unknown = await res.json();
    if (!res.ok) throw new Error(`stripe stand-in control ${path}: ${JSON.stringify(answer)}`);
    return answer as T;
  };
  return {
    state: () =>
      call<{ sessions: StandInSession[]; events: StandInEvent[]; deliveries: Delivery[]; refunds: StandInRefund[]; held: string[]; webhookUrl: string | null }>("GET", "state"),
    complete: (sessionId: string, options: { amountTotal?: number; currency?: string; force?: boolean } = {}) =>
      call<StandInEvent>("POST", `sessions/${encodeURIComponent(sessionId)}/complete`, options),
    expire: (sessionId: string) => call<StandInEvent>("POST", `sessions/${encodeURIComponent(sessionId)}/expire`, {}),
    resend: (eventId: string, options: Omit<DeliverOptions, "secret"> = {}) => call<Delivery>("POST", `events/${encodeURIComponent(eventId)}/resend`, options),
    hold: () => call<object>("POST", "hold", {}),
    release: (order: (string | number)[] = []) => call<Delivery[]>("POST", "release", { order }),
    refuseRefunds: (message: string | null, code?: string) => call<object>("POST", "refuse-refunds", { message, code }),
    refundStatus: (status: "succeeded" | "pending" | "failed") => call<object>("POST", "refund-status", { status }),
    settleRefund: (refundId: string, status: "succeeded" | "failed", failureReason?: string) =>
      call<StandInEvent[]>("POST", `refunds/${encodeURIComponent(refundId)}/settle`, { status, failureReason }),
    setWebhookUrl: (webhookUrl: string | null) => call<object>("POST", "webhook-url", { url: webhookUrl }),
  };
}

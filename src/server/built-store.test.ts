/**
 * What ships is what is tested (issue 29): the built store, `dist/server/main.js` as `npm start`
 * runs it, started once per mode the README documents and driven over HTTP.
 *
 * - PGlite, the default: a newcomer's store (pretty logs, the demo catalogue, its data kept in DATA_DIR).
 * - Postgres (DATABASE_URL) with the optional services: mail to a stand-in SMTP server, Google
 *   sign-in against a stand-in OpenID provider, photos in UPLOAD_DIR, a trusted proxy.
 * - Two instances on one Postgres and one Redis (REDIS_URL): shared sessions and sign-in limits,
 *   sign-out on one ends the session on both, racing checkouts never oversell, racing accepts of a
 *   quote make one order, racing terms orders never pass a trade account's credit limit, and a Redis outage.
 * - Bad configuration: one line naming the variable, exit 1.
 *
 * Every store runs under tests/support/record-imports.mjs, so the last test can check that every
 * package the server loads with import() (dist/server/dynamic-imports.json, written by the build)
 * was really loaded from the bundle in some mode; and that every variable of the README's
 * configuration table was given to some store here.
 *
 * It needs the built store (`npm run build`; `.ci/run` builds before testing): without one it is
 * skipped with a message locally and fails under CI=true. The Postgres modes need DATABASE_URL and
 * the Redis mode a Redis (REDIS_URL, else 127.0.0.1:6379), likewise.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpStandIn, type SmtpStandIn } from "../../tests/support/smtp";
import { startOidcProvider, OIDC_CLIENT } from "../../tests/support/oidc";
import { startStripeStandIn, type StripeStandIn } from "../../tests/support/stripe";
import { freePort, googleLogin } from "../../tests/support/google-login";
import { HttpClient } from "../../tests/support/http-client";
import { MAIL_TEXT } from "../contract/texts/mail";
import { API_TEXT } from "../contract/texts/api";
import type { Order, Tool } from "../contract/schemas";
import { findAppRoot } from "./config";
import { connectTestRedis, createPostgresDatabase, startTcpProxy, uniqueEmail, type TcpProxy, type TestRedis } from "./test-support";

const root = findAppRoot();
const CI = process.env.CI === "true";
const built = ["dist/web/index.html", "dist/server/main.js", "dist/server/dynamic-imports.json"].every((f) => existsSync(path.join(root, f)));
if (!built && !CI) console.warn("No built store in dist/ (run `npm run build`): skipping the built-store tests.");
const withPostgres = Boolean(process.env.DATABASE_URL);
if (!withPostgres && !CI) console.warn("No DATABASE_URL: skipping the built store's Postgres and Redis modes.");
const recorder = path.join(root, "tests/support/record-imports.mjs");
const scratch = mkdtempSync(path.join(tmpdir(), "toolyard-built-"));

/** Every variable given to a store in this file (README drift check). */
const variablesUsed = new Set<string>();
/** Every `specifier\turl` the stores resolved (tests/support/record-imports.mjs). */
const importFiles: string[] = [];
const running = new Set<ChildProcess>();

interface Store {
  /** Where the test sends its requests: the address the store binds (HOST). */
  url: string;
  /** PUBLIC_URL: what the store names itself (links, callbacks, its trusted origin). */
  publicUrl: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<number | null>;
}

/** Runs the built store as `npm start` does (scripts/start.mjs imports dist/server/main.js). */
function spawnStore(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  for (const name of Object.keys(env)) variablesUsed.add(name);
  const importsFile = path.join(scratch, `imports-${importFiles.length}.tsv`);
  importFiles.push(importsFile);
  const child = spawn(process.execPath, ["--import", recorder, "scripts/start.mjs"], {
    cwd: root,
    // Only what the test says: nothing of the test run's own DATABASE_URL, REDIS_URL or NODE_ENV.
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? scratch, RECORD_IMPORTS_FILE: importsFile, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, output: () => output, exited };
}

async function startStore(env: Record<string, string>): Promise<Store> {
  const port = Number(env.PORT ?? (await freePort()));
  const run = spawnStore({ PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://localhost:${port}`, ...env });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (run.child.exitCode !== null) throw new Error(`the built store exited with ${run.child.exitCode}:\n${run.output()}`);
    const ok = await fetch(`${url}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the built store did not answer /api/health:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    port,
    child: run.child,
    output: run.output,
    stop: async () => {
      run.child.kill("SIGTERM");
      return run.exited;
    },
  };
}

/** Starts the built store expecting it to refuse: its exit code and what it printed. */
async function refusedStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const dataDir = mkdtempSync(path.join(scratch, "refused-"));
  const run = spawnStore({ PORT: String(await freePort()), DATA_DIR: dataDir, SEED: "false", ...env });
  const timer = setTimeout(() => run.child.kill("SIGKILL"), 20_000);
  const code = await run.exited;
  clearTimeout(timer);
  return { code, stderr: run.output() };
}

/** A POST with its path exactly as written (fetch and URL remove "/./" segments before sending). */
function rawPostStatus(port: number, rawPath: string, body: object): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: rawPath, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** The first row of one query on the store's own Postgres database, read behind its back. */
async function firstRow(databaseUrl: string, text: string, values: unknown[] = []): Promise<unknown> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows[0];
  } finally {
    await client.end();
  }
}

async function eventually(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - started;
}

const jsonLines = (output: string) =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: number; msg: string });

afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

const suite = describe.skipIf(!built && !CI);
const postgresSuite = describe.skipIf((!built || !withPostgres) && !CI);

suite("the built store", () => {
  it("is in dist/ (npm run build)", () => {
    expect(built, "dist/server/main.js, dist/server/dynamic-imports.json and dist/web/index.html").toBe(true);
  });
});

suite("the built store on PGlite, the default", () => {
  let store: Store;
  let dataDir: string;
  const email = uniqueEmail("pglite");
  const env = () => ({
    DATA_DIR: dataDir,
    DEV_ORIGINS: "http://localhost:5173",
    RATE_LIMIT_MAX: "400",
    RATE_LIMIT_WINDOW_SECONDS: "60",
    AUTH_RATE_LIMIT_ADDRESS_MAX: "3",
  });

  beforeAll(async () => {
    if (!built) return;
    dataDir = mkdtempSync(path.join(scratch, "pglite-"));
    store = await startStore(env());
  }, 90_000);
  afterAll(async () => {
    await store?.stop();
  });

  it("serves the demo catalogue, the rendered pages, the API docs and robots.txt with PUBLIC_URL", async () => {
    const tools = await fetch(`${store.url}/api/tool`);
    expect(tools.headers.get("x-total-count")).toBe("16");
    const [first] = (await tools.json()) as Tool[];
    const page = await fetch(`${store.url}/tools/${first?._id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(first?.name);
    expect((await fetch(`${store.url}/api/docs/static/index.css`)).status).toBe(200);
    expect(await (await fetch(`${store.url}/robots.txt`)).text()).toContain(`${store.publicUrl}/sitemap.xml`);
    const sitemap = await (await fetch(`${store.url}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${store.publicUrl}/tools/${first?._id}</loc>`);
    // NODE_ENV unset is development: LOG_FORMAT's default there is pretty, readable lines.
    expect(store.output()).toMatch(/INFO.*Toolyard is serving on/);
    expect(jsonLines(store.output())).toEqual([]);
  });

  it("does what the README's API notes say: bearer tokens, no-Origin clients, canonical auth paths, private answers", async () => {
    // A script without a browser: no Origin header, then a bearer token instead of the cookie.
    const script = new HttpClient(store.url, {});
    const scripted = uniqueEmail("pglite-script");
    expect((await script.signUp("Script", scripted)).statusCode).toBe(200);
    const first = await script.put(`/api/user/${encodeURIComponent(scripted)}`, { email: scripted });
    expect(first.statusCode).toBe(200);
    const { token } = first.json() as { token: string };
    expect(((await script.put(`/api/user/${encodeURIComponent(scripted)}`, { email: scripted })).json() as { token: string }).token).toBe(token);
    const bearer = new HttpClient(store.url, { authorization: `Bearer ${token}` });
    const profile = await bearer.get("/api/me/profile");
    expect((profile.json() as { email: string }).email).toBe(scripted);
    expect(profile.headers["cache-control"]).toBe("private, no-store");
    // Someone else's e-mail is not theirs to ask a token for.
    const other = uniqueEmail("pglite-other");
    expect((await script.put(`/api/user/${encodeURIComponent(other)}`, { email: other })).statusCode).toBe(403);
    // Auth paths only in their canonical spelling (sent as written: fetch would tidy the dot away).
    expect(await rawPostStatus(store.port, "/api/auth/./sign-in/email", { email: scripted, password: "Str0ng!pass" })).toBe(400);
    // Signing out ends the token too.
    expect((await script.post("/api/auth/sign-out", {})).statusCode).toBe(200);
    expect((await bearer.get("/api/me/profile")).statusCode).toBe(401);
  });

  it("gives a customer the order's invoice as a PDF (pdfkit, which Node loads beside the bundle)", async () => {
    const buyer = new HttpClient(store.url);
    expect((await buyer.signUp("Ivy", uniqueEmail("pglite-invoice"))).statusCode).toBe(200);
    const [tool] = (await (await fetch(`${store.url}/api/tool`)).json()) as Tool[];
    const ordered = await buyer.post("/api/order", { toolId: tool?._id, quantity: tool?.minimumQuantity });
    expect(ordered.statusCode, ordered.body).toBe(201);
    const { _id, invoiceNumber } = ordered.json() as Order;
    const invoice = await buyer.get(`/api/order/${_id}/invoice`);
    expect(invoice.statusCode, invoice.body).toBe(200);
    expect(invoice.headers["content-type"]).toBe("application/pdf");
    expect(invoice.headers["content-disposition"]).toBe(`attachment; filename="${invoiceNumber}.pdf"`);
    expect(invoice.body.startsWith("%PDF-")).toBe(true);
  });

  it("takes posts from its own origin and DEV_ORIGINS only, and limits failed sign-ins per address (AUTH_RATE_LIMIT_ADDRESS_MAX)", async () => {
    const own = new HttpClient(store.url);
    expect((await own.signUp("Pat", email)).statusCode).toBe(200);
    const dev = new HttpClient(store.url, { origin: "http://localhost:5173" });
    expect((await dev.signIn(email)).statusCode).toBe(200);
    const stranger = new HttpClient(store.url, { origin: "http://evil.example" });
    expect((await stranger.signIn(email)).statusCode).toBe(403);
    // No TRUST_PROXY: X-Forwarded-For is not believed, so three addresses are one.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const c = new HttpClient(store.url, { origin: store.url, "x-forwarded-for": `203.0.113.${i + 1}` });
      statuses.push((await c.signIn(uniqueEmail("nobody"), "Wr0ng!pass")).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it("limits API requests per address (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS)", async () => {
    let status = 200;
    let sent = 0;
    while (status === 200 && sent < 500) {
      const res = await fetch(`${store.url}/api/review?limit=1`);
      status = res.status;
      sent++;
      if (status === 429) expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    }
    expect(status).toBe(429);
    expect(sent).toBeLessThanOrEqual(400);
  });

  it("keeps its data in DATA_DIR across a restart", async () => {
    expect(await store.stop()).toBe(0);
    expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(["auth-secret"]));
    store = await startStore(env());
    const again = new HttpClient(store.url);
    expect((await again.signIn(email)).statusCode).toBe(200);
    expect(((await again.get("/api/me/profile")).json() as { email: string }).email).toBe(email);
  }, 60_000);
});

postgresSuite("the built store on Postgres with mail, Google, uploads and a proxy", () => {
  let store: Store;
  let smtp: SmtpStandIn;
  let oidc: { issuer: string; close: () => Promise<void> };
  let stripe: StripeStandIn;
  let db: { url: string; drop: () => Promise<void> };
  let uploadDir: string;
  const admin = uniqueEmail("pg-admin");
  const proxied = (address: string) => ({ "x-forwarded-for": address });

  beforeAll(async () => {
    if (!built || !withPostgres) return;
    smtp = await startSmtpStandIn();
    stripe = await startStripeStandIn({ webhookSecret: "whsec_built_store_0123456789" });
    db = await createPostgresDatabase();
    uploadDir = mkdtempSync(path.join(scratch, "uploads-"));
    const port = await freePort();
    const oidcPort = await freePort();
    oidc = await startOidcProvider(oidcPort, `http://localhost:${port}`);
    store = await startStore({
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(scratch, "pg-")),
      DATABASE_URL: db.url,
      SEED: "false",
      ADMIN_EMAILS: admin,
      SMTP_URL: smtp.url,
      MAIL_FROM: "Toolyard Test <shop@toolyard.example>",
      MAIL_POLL_MS: "100",
      MAIL_MAX_ATTEMPTS: "1",
      MAIL_TIMEOUT_SECONDS: "1",
      GOOGLE_CLIENT_ID: OIDC_CLIENT.id,
      GOOGLE_CLIENT_SECRET: OIDC_CLIENT.secret,
      GOOGLE_DISCOVERY_URL: `${oidc.issuer}/.well-known/openid-configuration`,
      UPLOAD_DIR: uploadDir,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
      PAYMENT_HOLD_MINUTES: "30",
      TRUST_PROXY: "127.0.0.1",
      AUTH_RATE_LIMIT_ACCOUNT_MAX: "2",
      LOG_FORMAT: "json",
      LOG_LEVEL: "info",
    });
    stripe.setWebhookUrl(`${store.url}/api/payments/stripe/webhook`);
  }, 90_000);
  afterAll(async () => {
    await store?.stop();
    await smtp?.close();
    await stripe?.close();
    await oidc?.close();
    await db?.drop();
  });

  it("keeps its data in DATABASE_URL's database, seeds nothing with SEED=false, and logs JSON lines", async () => {
    expect(await (await fetch(`${store.url}/api/health`)).json()).toEqual({ status: "ok", db: "ok" });
    expect((await fetch(`${store.url}/api/tool`)).headers.get("x-total-count")).toBe("0");
    expect(await firstRow(db.url, "select count(*)::int as n from tools")).toEqual({ n: 0 });
    const lines = jsonLines(store.output());
    expect(lines.map((l) => l.msg)).toContain(`Toolyard is serving on ${store.publicUrl}`);
    // Two instances on this database would each generate their own secret: the start says so.
    expect(lines.find((l) => l.msg.startsWith("AUTH_SECRET is not set"))?.level).toBe(40);
  });

  it("sends mail through SMTP_URL from MAIL_FROM, and gives a message up after MAIL_MAX_ATTEMPTS when the server hangs (MAIL_TIMEOUT_SECONDS)", async () => {
    const email = uniqueEmail("pg-mail");
    expect((await new HttpClient(store.url).signUp("Mel", email)).statusCode).toBe(200);
    const mail = await smtp.waitFor(email, MAIL_TEXT.verify.subject);
    expect(mail.from).toContain("shop@toolyard.example");

    const owner = new HttpClient(store.url);
    expect((await owner.signUp("Admin", admin)).statusCode).toBe(200);
    await smtp.waitFor(admin, MAIL_TEXT.verify.subject);
    smtp.mode = "hang";
    const lost = uniqueEmail("pg-lost");
    try {
      expect((await new HttpClient(store.url).signUp("Lost", lost)).statusCode).toBe(200);
      await eventually(
        "the message marked failed",
        async () => {
          const failed = (await owner.get("/api/admin/mail?status=failed")).json() as Array<{ to: string; attempts: number }>;
          return failed.some((m) => m.to === lost && m.attempts === 1);
        },
        20_000,
      );
    } finally {
      smtp.mode = "accept";
    }
  }, 60_000);

  it("believes X-Forwarded-For from TRUST_PROXY, and mails the owner once about failed sign-ins (AUTH_RATE_LIMIT_ACCOUNT_MAX)", async () => {
    const email = uniqueEmail("pg-proxy");
    expect((await new HttpClient(store.url).signUp("Proxy", email)).statusCode).toBe(200);
    // Five failures from each of two addresses: neither reaches the per-address limit of 5.
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const c = new HttpClient(store.url, { origin: store.url, ...proxied(`198.51.100.${(i % 2) + 1}`) });
      statuses.push((await c.signIn(email, "Wr0ng!pass")).statusCode);
    }
    expect(statuses).toEqual(Array(10).fill(401));
    await smtp.waitFor(email, MAIL_TEXT.failedSignIns.subject);
    expect(smtp.to(email).filter((m) => m.subject === MAIL_TEXT.failedSignIns.subject)).toHaveLength(1);
  }, 60_000);

  it("redirects 'Continue With Google' to the provider of GOOGLE_DISCOVERY_URL and signs the customer in", async () => {
    const client = new HttpClient(store.url);
    const login = uniqueEmail("pg-google");
    const back = await googleLogin(client, store.publicUrl, login);
    expect(back.status).toBe(302);
    expect(((await client.get("/api/me/profile")).json() as { email: string }).email).toBe(login);
  }, 60_000);

  it("keeps uploaded photos in UPLOAD_DIR and serves them under /uploads/ for a year", async () => {
    const owner = new HttpClient(store.url);
    expect((await owner.signIn(admin)).statusCode).toBe(200);
    const created = await owner.post("/api/tool", {
      name: "Uploaded saw",
      image: "/images/tools/jigsaw.svg",
      price: 10,
      availableQuantity: 5,
      minimumQuantity: 1,
      description: "A tool with a photo.",
      category: "hand-tools",
    });
    expect(created.statusCode).toBe(201);
    const { _id } = created.json() as Tool;
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#c2410c" } }).png().toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "saw.png");
    const uploaded = await owner.request("POST", `/api/admin/tools/${_id}/image`, { body: form });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { image } = uploaded.json() as Tool;
    expect(image).toMatch(/^\/uploads\/tools\/.+\.webp$/);
    expect(existsSync(path.join(uploadDir, image.replace(/^\/uploads\//, "")))).toBe(true);
    const served = await fetch(`${store.url}${image}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("cache-control")).toContain("immutable");
  }, 60_000);

  it("takes card payments through Stripe (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_URL): the webhook makes the order paid", async () => {
    const owner = new HttpClient(store.url, { origin: store.url, ...proxied("198.51.100.40") });
    // The admin signed up in the mail test above.
    expect((await owner.signIn(admin)).statusCode).toBe(200);
    const created = await owner.post("/api/tool", {
      name: "Card Drill",
      image: "/images/tools/cordless-drill.svg",
      price: 89,
      availableQuantity: 5,
      minimumQuantity: 1,
      description: "Paid by card.",
      category: "power-tools",
    });
    expect(created.statusCode, created.body).toBe(201);
    const buyer = new HttpClient(store.url, { origin: store.url, ...proxied("198.51.100.41") });
    expect((await buyer.signUp("Cara", uniqueEmail("pg-card"))).statusCode).toBe(200);
    expect((await buyer.request("PUT", `/api/cart/lines/${(created.json() as Tool)._id}`, { payload: { quantity: 1 } })).statusCode).toBe(200);
    const res = await buyer.request("POST", "/api/checkout", {
      payload: { address: "1 Main St", phone: "555 0100", paymentMethod: "card" },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { order, payment } = res.json() as { order: Order; payment: { url: string } };
    expect(order.status).toBe("awaiting_payment");
    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === order._id);
    expect(payment.url).toBe(session?.url);
    await stripe.complete(session?.id as string);
    expect(((await buyer.get(`/api/order/${order._id}`)).json() as Order).status).toBe("paid");
  });

});

postgresSuite("two built instances on one Postgres and one Redis (REDIS_URL)", () => {
  const stores: Store[] = [];
  let redis: TestRedis;
  let proxy: TcpProxy;
  let db: { url: string; drop: () => Promise<void> };
  const admin = uniqueEmail("pair-admin");
  const SESSION_CACHE_SECONDS = 2;

  beforeAll(async () => {
    if (!built || !withPostgres) return;
    redis = await connectTestRedis();
    if (!redis.redis) return;
    proxy = await startTcpProxy(Number(new URL(redis.url).port || 6379));
    db = await createPostgresDatabase();
    const env = {
      NODE_ENV: "production",
      AUTH_SECRET: "built-pair-secret-built-pair-secret-0123",
      DATABASE_URL: db.url,
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: redis.prefix,
      SESSION_CACHE_SECONDS: String(SESSION_CACHE_SECONDS),
      LIST_CACHE_SECONDS: "1",
      AUTH_RATE_LIMIT_MAX: "5",
      AUTH_RATE_LIMIT_WINDOW_SECONDS: "30",
      ADMIN_EMAILS: admin,
      LOG_LEVEL: "warn",
    };
    // One after the other: the second finds the database migrated and seeded.
    for (let i = 0; i < 2; i++) stores.push(await startStore({ ...env, DATA_DIR: mkdtempSync(path.join(scratch, `pair-${i}-`)) }));
  }, 120_000);
  afterAll(async () => {
    for (const store of stores) await store.stop();
    await proxy?.stop();
    await redis?.close();
    await db?.drop();
  });

  const pair = () => {
    const [a, b] = stores;
    if (!a || !b) throw new Error("the two instances did not start (is Redis running?)");
    return [a, b] as const;
  };

  it("start with NODE_ENV=production, log only LOG_LEVEL and up, and keep their keys under REDIS_KEY_PREFIX", async () => {
    const [a, b] = pair();
    for (const store of [a, b]) expect(jsonLines(store.output()).filter((l) => l.level < 40)).toEqual([]);
    expect(await redis.redis?.keys(`${redis.prefix}*`)).not.toHaveLength(0);
  });

  it("honour each other's sessions, and a sign-out on one ends it on the other within SESSION_CACHE_SECONDS", async () => {
    const [a, b] = pair();
    const email = uniqueEmail("pair");
    const onA = new HttpClient(a.url);
    expect((await onA.signUp("Shared", email)).statusCode).toBe(200);
    const onB = (url: string) => fetch(`${b.url}${url}`, { headers: { cookie: onA.cookieHeader() } });
    expect(((await (await onB("/api/me/profile")).json()) as { email: string }).email).toBe(email);
    const cookie = onA.cookieHeader();
    expect((await onA.post("/api/auth/sign-out", {})).statusCode).toBe(200);
    const took = await eventually(
      "B refuses the signed-out session",
      async () => (await fetch(`${b.url}/api/me/profile`, { headers: { cookie } })).status === 401,
      SESSION_CACHE_SECONDS * 1000 + 3000,
    );
    expect(took).toBeLessThanOrEqual(SESSION_CACHE_SECONDS * 1000 + 1500);
  });

  it("count failed sign-ins together (AUTH_RATE_LIMIT_MAX per AUTH_RATE_LIMIT_WINDOW_SECONDS)", async () => {
    const [a, b] = pair();
    const email = uniqueEmail("pair-target");
    expect((await new HttpClient(a.url).signUp("Target", email)).statusCode).toBe(200);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await new HttpClient((i % 2 === 0 ? a : b).url).signIn(email, `Wr0ng!pass${i}`));
    expect(answers.map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401, 429]);
    const retryAfter = Number(answers[5]?.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
  });

  it("never oversell one hot tool to checkouts racing on both", async () => {
    const [a, b] = pair();
    const owner = new HttpClient(a.url);
    expect((await owner.signUp("Admin", admin)).statusCode).toBe(200);
    const created = await owner.post("/api/tool", {
      name: "Hot chainsaw",
      image: "/images/tools/chainsaw.svg",
      price: 199,
      availableQuantity: 6,
      minimumQuantity: 1,
      description: "Everyone wants one.",
      category: "chainsaws",
    });
    expect(created.statusCode).toBe(201);
    const tool = created.json() as Tool;
    const buyers = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const c = new HttpClient((i % 2 === 0 ? a : b).url);
        expect((await c.signUp(`Buyer ${i}`, uniqueEmail("pair-buyer"))).statusCode).toBe(200);
        expect((await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 })).statusCode).toBe(200);
        return c;
      }),
    );
    const results = await Promise.all(
      buyers.map((c, i) =>
        c.post("/api/checkout", { address: "1 Main St", phone: "+1 555 0100", paymentMethod: "cash_on_delivery" }, { "idempotency-key": `race-${i}-${tool._id}` }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array(6).fill(201), ...Array(6).fill(409)]);
    expect(await firstRow(db.url, "select available_quantity::int as stock from tools where id = $1", [tool._id])).toEqual({ stock: 0 });
    // LIST_CACHE_SECONDS: the other instance sees the new stock within a second.
    await eventually("B shows the stock gone", async () => ((await (await fetch(`${b.url}/api/tool/${tool._id}`)).json()) as Tool).availableQuantity === 0, 3000);
  }, 60_000);

  it("make exactly one order of a quote whose accepts race on both, with many keys and with one key retried", async () => {
    const [a, b] = pair();
    const owner = new HttpClient(a.url);
    if ((await owner.signUp("Admin", admin)).statusCode !== 200) expect((await owner.signIn(admin)).statusCode).toBe(200);
    const created = await owner.post("/api/tool", {
      name: "Quoted chainsaw",
      image: "/images/tools/chainsaw.svg",
      price: 349,
      availableQuantity: 100,
      minimumQuantity: 1,
      description: "Twenty for the crew.",
      category: "chainsaws",
    });
    expect(created.statusCode).toBe(201);
    const tool = created.json() as Tool;
    const validUntil = new Date(Date.now() + 86_400_000).toISOString();

    // Two quotes of one customer, each answered; the customer's session is good on both instances.
    const buyer = new HttpClient(a.url);
    expect((await buyer.signUp("Crew lead", uniqueEmail("pair-quote"))).statusCode).toBe(200);
    const quoteIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const quote = await buyer.post("/api/quotes", { lines: [{ toolId: tool._id, quantity: 20 }] });
      expect(quote.statusCode, quote.body).toBe(201);
      const id = (quote.json() as { _id: string })._id;
      expect((await owner.post(`/api/admin/quotes/${id}/revisions`, { lines: [{ toolId: tool._id, quantity: 20, unitPrice: 300 }], shipping: 0, validUntil })).statusCode).toBe(201);
      quoteIds.push(id);
    }
    const [many, retried] = quoteIds as [string, string];
    const cookie = buyer.cookieHeader();
    const accept = (i: number, quoteId: string, key: string) =>
      new HttpClient((i % 2 === 0 ? a : b).url).post(`/api/quotes/${quoteId}/accept`, { revision: 1, paymentMethod: "bank_transfer" }, { cookie, "idempotency-key": key });

    const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => accept(i, many, `race-quote-${i}`)));
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const r of racing.filter((x) => x.statusCode === 409)) expect((r.json() as { error: string }).error).toBe("QUOTE_ALREADY_ACCEPTED");
    const retries = await Promise.all(Array.from({ length: 10 }, (_, i) => accept(i, retried, "one-key")));
    expect(retries.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(retries.map((r) => (r.json() as { order: Order }).order._id)).size).toBe(1);

    // Two orders in all, forty units: one a quote.
    expect(await firstRow(db.url, "select count(*)::int as n, coalesce(sum(quantity), 0)::int as units from orders where quote_id = any($1)", [quoteIds])).toEqual({ n: 2, units: 40 });
    expect(await firstRow(db.url, "select available_quantity::int as stock from tools where id = $1", [tool._id])).toEqual({ stock: 60 });
  }, 60_000);

  it("never pass a trade account's credit limit with terms orders racing on both (issue 43)", async () => {
    const [a, b] = pair();
    const owner = new HttpClient(a.url);
    if ((await owner.signUp("Admin", admin)).statusCode !== 200) expect((await owner.signIn(admin)).statusCode).toBe(200);
    const created = await owner.post("/api/tool", {
      name: "Crew hedge trimmer",
      image: "/images/tools/chainsaw.svg",
      price: 100,
      availableQuantity: 1000,
      minimumQuantity: 1,
      description: "One per crew lead.",
      category: "power-tools",
    });
    expect(created.statusCode).toBe(201);
    const tool = created.json() as Tool;
    const account = await owner.post("/api/admin/accounts", { name: "Racing Landscapes", terms: "net30", creditLimit: 0 });
    expect(account.statusCode, account.body).toBe(201);
    const accountId = (account.json() as { _id: string })._id;
    const buyers = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const email = uniqueEmail("pair-terms");
        const c = new HttpClient((i % 2 === 0 ? a : b).url);
        expect((await c.signUp(`Crew lead ${i}`, email)).statusCode).toBe(200);
        expect((await owner.post(`/api/admin/accounts/${accountId}/members`, { email, role: "buyer" })).statusCode).toBe(201);
        expect((await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 })).statusCode).toBe(200);
        return c;
      }),
    );
    // Credit for exactly 10 orders: one order is the cart's total (pickup, taxed at the store's address).
    const total = ((await (buyers[0] as HttpClient).get("/api/cart")).json() as { total: number }).total;
    expect((await owner.request("PATCH", `/api/admin/accounts/${accountId}`, { payload: { creditLimit: Number((total * 10).toFixed(2)) } })).statusCode).toBe(200);
    const results = await Promise.all(
      buyers.map((c, i) =>
        i % 4 === 0
          ? c.post("/api/order", { toolId: tool._id, quantity: 1, paymentMethod: "terms" })
          : c.post("/api/checkout", { address: "1 Main St", phone: "+1 555 0100", paymentMethod: "terms" }, { "idempotency-key": `terms-${i}-${tool._id}` }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([...Array(10).fill(201), ...Array(6).fill(409)]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json()).toMatchObject({ error: "CREDIT_LIMIT", available: 0 });
    expect(await firstRow(db.url, "select count(*)::int as n, sum(total_cents)::int as cents from orders where account_id = $1 and payment_method = 'terms'", [accountId])).toEqual({
      n: 10,
      cents: Math.round(total * 100) * 10,
    });
  }, 90_000);

  it("answer what needs Redis with 503 and Retry-After while it is away, keep the catalogue open, and recover", async () => {
    const [a] = pair();
    const email = uniqueEmail("pair-outage");
    expect((await new HttpClient(a.url).signUp("Outage", email)).statusCode).toBe(200);
    await proxy.stop();
    try {
      const signIn = await new HttpClient(a.url).signIn(email);
      expect(signIn.statusCode).toBe(503);
      expect(signIn.json()).toEqual({ error: "UNAVAILABLE", message: API_TEXT.unavailable });
      expect(Number(signIn.headers["retry-after"])).toBeGreaterThan(0);
      expect((await fetch(`${a.url}/api/tool`)).status).toBe(200);
      expect((await fetch(`${a.url}/`)).status).toBe(200);
    } finally {
      await proxy.start();
    }
    await eventually("sign-in works again", async () => (await new HttpClient(a.url).signIn(email)).statusCode === 200);
  }, 60_000);
});

postgresSuite("a built store killed between a refund's decision and the provider's call (issue 40)", () => {
  let stripe: StripeStandIn;
  let db: { url: string; drop: () => Promise<void> };
  const stores: Store[] = [];
  const admin = uniqueEmail("crash-admin");

  beforeAll(async () => {
    if (!built || !withPostgres) return;
    stripe = await startStripeStandIn({ webhookSecret: "whsec_built_crash_0123456789" });
    db = await createPostgresDatabase();
  });
  afterAll(async () => {
    for (const store of stores) if (store.child.exitCode === null) await store.stop();
    await stripe?.close();
    await db?.drop();
  });

  const start = async (port: number) => {
    const store = await startStore({
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(scratch, "crash-")),
      DATABASE_URL: db.url,
      SEED: "false",
      ADMIN_EMAILS: admin,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
      LOG_LEVEL: "warn",
    });
    stores.push(store);
    return store;
  };

  it("sends the refund exactly once after the restart", async () => {
    const port = await freePort();
    const first = await start(port);
    stripe.setWebhookUrl(`${first.url}/api/payments/stripe/webhook`);
    const owner = new HttpClient(first.url, { origin: first.url });
    expect((await owner.signUp("Owner", admin)).statusCode).toBe(200);
    const created = await owner.post("/api/tool", {
      name: "Crash Saw",
      image: "/images/tools/jigsaw.svg",
      price: 40,
      availableQuantity: 3,
      minimumQuantity: 1,
      description: "Refunded across a crash.",
      category: "power-tools",
    });
    expect(created.statusCode, created.body).toBe(201);
    const tool = created.json() as Tool;
    const buyer = new HttpClient(first.url, { origin: first.url });
    expect((await buyer.signUp("Crash Buyer", uniqueEmail("crash"))).statusCode).toBe(200);
    expect((await buyer.request("PUT", `/api/cart/lines/${tool._id}`, { payload: { quantity: 1 } })).statusCode).toBe(200);
    const placed = await buyer.request("POST", "/api/checkout", { payload: { address: "1 Main St", phone: "555 0100", paymentMethod: "card" }, headers: { "idempotency-key": randomUUID() } });
    expect(placed.statusCode, placed.body).toBe(201);
    const { order } = placed.json() as { order: Order };
    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === order._id);
    await stripe.complete(session?.id as string);
    expect(((await buyer.get(`/api/order/${order._id}`)).json() as Order).status).toBe("paid");

    // The refund call never reaches Stripe: the store is killed while it waits.
    stripe.failRequests({ method: "POST", path: "/v1/refunds" }, "hang", 1);
    const cancel = await owner.post(`/api/admin/orders/${order._id}/status`, { status: "cancelled" });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect((cancel.json() as Order).status).toBe("refunding");
    await eventually("the refund worker has claimed the refund", async () => ((await owner.get("/api/admin/refunds")).json() as { tries: number }[]).some((r) => r.tries >= 1));
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    stripe.releaseHung();
    expect(stripe.refunds).toHaveLength(0);

    const second = await start(port);
    const again = new HttpClient(second.url, { origin: second.url });
    expect((await again.signIn(admin)).statusCode).toBe(200);
    // The first claim's lease runs out (30 s), then the restarted store sends it, with the same key.
    await eventually(
      "the order is cancelled once its refund is confirmed",
      async () => ((await again.get(`/api/admin/orders/${order._id}`)).json() as Order).status === "cancelled",
      60_000,
    );
    expect(stripe.refunds.filter((r) => r.metadata?.orderId === order._id)).toEqual([expect.objectContaining({ amount: 4000, status: "succeeded" })]);
    const tool2 = (await (await fetch(`${second.url}/api/tool/${tool._id}`)).json()) as Tool;
    expect(tool2.availableQuantity).toBe(3);
  }, 150_000);
});

suite("the built store refuses bad configuration with one line naming the variable", () => {
  it("PORT, REDIS_URL and DATABASE_URL", async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: "http" }, /^Configuration error: PORT /],
      [{ REDIS_URL: "redis://127.0.0.1:1" }, /^Configuration error: REDIS_URL: cannot reach Redis at redis:\/\/127\.0\.0\.1:1 /],
      [{ DATABASE_URL: "postgres://shop:secret@127.0.0.1:1/toolyard" }, /^Configuration error: DATABASE_URL: cannot reach Postgres at postgres:\/\/shop:\*\*\*@127\.0\.0\.1:1\/toolyard /],
    ];
    for (const [env, line] of cases) {
      const { code, stderr } = await refusedStart(env);
      expect(code, stderr).toBe(1);
      expect(stderr.trim().split("\n"), stderr).toHaveLength(1);
      expect(stderr).toMatch(line);
      expect(stderr).not.toContain("secret");
    }
  }, 90_000);
});

suite("what the stores above exercised", () => {
  it("renders pages with React's production build, whatever NODE_ENV the store is started with", () => {
    // The README's `npm start` sets no NODE_ENV: React's development build rendered every page at
    // about twice the CPU (scripts/build-server.mjs defines it away).
    const chunks = path.join(root, "dist/server/chunks");
    const code = readdirSync(chunks)
      .filter((file) => file.endsWith(".js"))
      .map((file) => readFileSync(path.join(chunks, file), "utf8"))
      .join("\n");
    expect(code).toContain("react-dom-server.node.production");
    expect(code).not.toContain("react-dom-server.node.development");
  });

  it("loaded every package the server imports with import(), from the bundle, in some mode", (ctx) => {
    if (!withPostgres && !CI) return ctx.skip();
    const manifest = JSON.parse(readFileSync(path.join(root, "dist/server/dynamic-imports.json"), "utf8")) as Array<{
      package: string;
      importer: string;
      carried: "bundled" | "node";
      chunk?: string;
    }>;
    const resolved = importFiles
      .filter((file) => existsSync(file))
      .flatMap((file) => readFileSync(file, "utf8").split("\n"))
      .filter((line) => line.includes("\t"))
      .map((line) => line.split("\t") as [string, string]);
    const server = manifest.filter((entry) => entry.importer.startsWith("src/server/"));
    expect(server.map((e) => e.package)).toEqual(expect.arrayContaining(["ioredis", "nodemailer", "pg", "sharp", "@electric-sql/pglite"]));
    const notLoaded = server.filter(({ carried, chunk, package: name }) =>
      carried === "node" ? !resolved.some(([specifier]) => specifier === name) : !resolved.some(([, url]) => url.endsWith(`/dist/server/${chunk}`)),
    );
    expect(notLoaded).toEqual([]);
  });

  it("gave every variable of the README's configuration table to a built store", (ctx) => {
    if (!withPostgres && !CI) return ctx.skip();
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    const table = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("### Mail"));
    const documented = [...table.matchAll(/^\| (`[A-Z_]+`(?:, `[A-Z_]+`)*) \|/gm)].flatMap((m) => [...(m[1] ?? "").matchAll(/`([A-Z_]+)`/g)].map((v) => v[1]));
    expect(documented.length).toBeGreaterThan(20);
    expect(documented.filter((name) => name !== undefined && !variablesUsed.has(name))).toEqual([]);
  });
});

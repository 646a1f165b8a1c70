/**
 * Starts what the browser tests drive: the local OpenID provider, the SMTP and Stripe stand-ins, and the real store,
 * built and started with `npm start` on a fresh database (PGlite in a temp folder, or
 * a fresh Postgres database when DATABASE_URL is set). Returns the teardown.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPostgresDatabase } from "../../src/server/test-support";
import { ADMIN_EMAIL, ADMIN_SPEC_TOOL, APP_PORT, APP_URL, BUYING_TOOL, CARD_TOOL, CART_TOOLS, MONEY_TOOL, OIDC_PORT, PASSWORD } from "./env";
import { OIDC_CLIENT, startOidcProvider } from "./oidc";
import { serveInbox, startSmtpStandIn } from "./smtp";
import { startStripeStandIn } from "./stripe";

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the store exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the store did not answer ${url}/api/health within ${timeoutMs} ms`);
}

/** Signs the admin (ADMIN_EMAILS) up and makes the tools specs own; their ids go to the workers in env vars. */
async function createOwnedTools(): Promise<void> {
  const json = { "content-type": "application/json", origin: APP_URL };
  const signUp = await fetch(`${APP_URL}/api/auth/sign-up/email`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ name: "Store Admin", email: ADMIN_EMAIL, password: PASSWORD }),
  });
  if (signUp.status !== 200) throw new Error(`admin sign-up answered ${signUp.status}: ${await signUp.text()}`);
  const cookie = signUp.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const create = async (tool: object): Promise<string> => {
    const created = await fetch(`${APP_URL}/api/tool`, { method: "POST", headers: { ...json, cookie }, body: JSON.stringify(tool) });
    if (created.status !== 201) throw new Error(`creating a test's own tool answered ${created.status}: ${await created.text()}`);
    return ((await created.json()) as { _id: string })._id;
  };
  process.env.E2E_BUYING_TOOL_ID = await create(BUYING_TOOL);
  const cartIds: string[] = [];
  for (const tool of CART_TOOLS) cartIds.push(await create(tool));
  process.env.E2E_CART_TOOL_IDS = cartIds.join(",");
  process.env.E2E_ADMIN_TOOL_ID = await create(ADMIN_SPEC_TOOL);
  process.env.E2E_MONEY_TOOL_ID = await create(MONEY_TOOL);
  process.env.E2E_CARD_TOOL_ID = await create(CARD_TOOL);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const oidc = await startOidcProvider(OIDC_PORT, APP_URL);
  // The store's mail goes to a real SMTP server of the test; workers read it over HTTP (E2E_INBOX_URL).
  const smtp = await startSmtpStandIn();
  const inbox = await serveInbox(smtp);
  process.env.E2E_INBOX_URL = inbox.url;
  // Card payments go to a Stripe stand-in; workers drive it (expire a session, hold webhooks) over HTTP (E2E_STRIPE_URL).
  // The webhook goes to 127.0.0.1, where the store listens, whatever `localhost` resolves to first.
  const stripe = await startStripeStandIn({ webhookSecret: `whsec_${randomBytes(16).toString("hex")}`, webhookUrl: `http://127.0.0.1:${APP_PORT}/api/payments/stripe/webhook` });
  process.env.E2E_STRIPE_URL = stripe.url;
  const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-e2e-"));
  const pgDb = process.env.DATABASE_URL ? await createPostgresDatabase() : undefined;
  const root = path.resolve(import.meta.dirname, "../..");

  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
      PORT: String(APP_PORT),
      HOST: "127.0.0.1",
      PUBLIC_URL: APP_URL,
      DATA_DIR: dataDir,
      DATABASE_URL: pgDb?.url ?? "",
      GOOGLE_CLIENT_ID: OIDC_CLIENT.id,
      GOOGLE_CLIENT_SECRET: OIDC_CLIENT.secret,
      GOOGLE_DISCOVERY_URL: `${oidc.issuer}/.well-known/openid-configuration`,
      ADMIN_EMAILS: ADMIN_EMAIL,
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: "200",
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
      // Longer than any browser test: a card order's hold must not run out under a slow test (the specs expire sessions themselves).
      PAYMENT_HOLD_MINUTES: "120",
      // No rate-limit overrides: the browser tests run under the shop's default limits, so
      // they also show that many customers signing in from one address are not locked out.
    },
  });
  try {
    await waitForHealth(APP_URL, child, 240_000);
    await createOwnedTools();
  } catch (error) {
    child.kill("SIGTERM");
    await oidc.close();
    await inbox.close();
    await smtp.close();
    await stripe.close();
    throw error;
  }

  return async () => {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
    await oidc.close();
    await inbox.close();
    await smtp.close();
    await stripe.close();
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

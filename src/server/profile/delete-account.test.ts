/**
 * Deleting an account (issue 10, decision 0012): the password (or, for a Google-only account, a
 * sign-in at most 5 minutes old) is required; the person goes, their orders stay in the books.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminOrderSchema, type AdminOrder } from "../../contract/admin-schemas";
import type { Tool } from "../../contract/schemas";
import { ACCOUNT_DELETION_TEXT } from "../../contract/texts/account";
import { googleLogin, freePort } from "../../../tests/support/google-login";
import { OIDC_CLIENT, startOidcProvider } from "../../../tests/support/oidc";
import { OrderDesk } from "../orders";
import { ApiError } from "../http/errors";
import { Client, drivers, ORIGIN, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const ADMIN = "books@toolyard.example";
const PASSWORD = "Str0ng!pass";

describe.each(drivers())("deleting an account on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  let oidc: { close: () => Promise<void> };
  let toolId: string;

  // Both drivers answer raw SQL with `{ rows }` (the shared Db type leaves the result untyped).
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await t.app.store.db.execute(query)) as unknown as { rows: T[] }).rows;
  const count = async (query: ReturnType<typeof sql>) => Number((await rows<{ n: number }>(query))[0]?.n);
  const sessionOf = async (c: Client) => (await c.get("/api/auth/get-session")).json() as { user: { id: string; email: string } } | null;

  beforeAll(async () => {
    const port = await freePort();
    const provider = await startOidcProvider(port, ORIGIN);
    oidc = provider;
    t = await startTestApp(driver, {
      ADMIN_EMAILS: ADMIN,
      AUTH_RATE_LIMIT_ADDRESS_MAX: "1000",
      GOOGLE_CLIENT_ID: OIDC_CLIENT.id,
      GOOGLE_CLIENT_SECRET: OIDC_CLIENT.secret,
      GOOGLE_DISCOVERY_URL: `${provider.issuer}/.well-known/openid-configuration`,
    });
    admin = new Client(t.app, "10.70.0.1");
    expect((await admin.signUp("Owner", ADMIN)).statusCode).toBe(200);
    const created = await admin.post("/api/tool", {
      name: "Deletion test saw",
      image: "/images/tools/jigsaw.svg",
      price: 12.5,
      availableQuantity: 100,
      minimumQuantity: 1,
      description: "For tests.",
      category: "hand-tools",
    });
    expect(created.statusCode).toBe(201);
    toolId = (created.json() as Tool)._id;
  });
  afterAll(async () => {
    await t?.close();
    await oidc?.close();
  });

  it("asks for the password, then removes the person and keeps the orders for the books", async () => {
    const email = uniqueEmail("leaver");
    const c = new Client(t.app, "10.70.1.1");
    expect((await c.signUp("Lee Leaver", email)).statusCode).toBe(200);
    const id = (await sessionOf(c))?.user.id as string;
    const otherDevice = new Client(t.app, "10.70.1.2");
    expect((await otherDevice.signIn(email)).statusCode).toBe(200);
    expect((await c.put("/api/me/profile", { address: "7 Leaving Lane", phone: "+1 555 0199" })).statusCode).toBe(200);
    const placed = await c.post("/api/order", { toolId, quantity: 2 });
    expect(placed.statusCode).toBe(201);
    const orderId = (placed.json() as { _id: string })._id;
    // A checkout's delivery note, as the checkout writes it.
    await t.app.store.db.execute(sql`update orders set note = 'Ring twice, Lee' where id = ${orderId}`);
    expect((await c.post("/api/review", { name: "Lee Leaver", rating: 5, description: "Great saw." })).statusCode).toBe(201);
    expect((await c.put(`/api/cart/lines/${toolId}`, { quantity: 1 })).statusCode).toBe(200);
    expect((await c.post("/api/auth/two-factor/enable", { password: PASSWORD })).statusCode).toBe(200);

    // No password, a wrong one: refused, nothing changed.
    const none = await c.post("/api/me/delete-account", {});
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: "PASSWORD_REQUIRED", message: ACCOUNT_DELETION_TEXT.passwordRequired });
    const wrong = await c.post("/api/me/delete-account", { password: "Wr0ng!pass" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe("INVALID_PASSWORD");
    expect((await sessionOf(c))?.user.email).toBe(email);
    expect((await new Client(t.app).post("/api/me/delete-account", { password: PASSWORD })).statusCode).toBe(401);

    const deleted = await c.post("/api/me/delete-account", { password: PASSWORD });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ deleted: true });
    expect(String(deleted.headers["set-cookie"])).toMatch(/better-auth\.session_token=; Max-Age=0/);

    // Signed out everywhere, and the password no longer opens anything.
    expect(await sessionOf(c)).toBeNull();
    expect(await sessionOf(otherDevice)).toBeNull();
    expect((await new Client(t.app, "10.70.1.3").signIn(email)).statusCode).toBe(401);

    // Nothing of the person is left.
    for (const table of ["user", "session", "account", "two_factor", "profiles", "cart_lines", "idempotency_keys"]) {
      const column = table === "user" ? "id" : "user_id";
      expect(await count(sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)} = ${id}`), table).toBe(0);
    }
    expect(await count(sql`select count(*)::int as n from mail_outbox where "to" = ${email}`)).toBe(0);
    const [order] = await rows<{ user_id: string | null; address: string; phone: string; note: string; total_cents: number }>(
      sql`select user_id, address, phone, note, total_cents::int as total_cents from orders where id = ${orderId}`,
    );
    expect(order).toEqual({ user_id: null, address: "", phone: "", note: "", total_cents: 2500 });
    expect(await count(sql`select count(*)::int as n from reviews where name = 'Lee Leaver'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from reviews where name = ${ACCOUNT_DELETION_TEXT.formerCustomer} and description = 'Great saw.'`)).toBe(1);

    // The books: the admin still sees the order, with no one behind it.
    const fromConsole = await admin.get(`/api/admin/orders/${orderId}`);
    expect(fromConsole.statusCode).toBe(200);
    const shown = adminOrderSchema.parse(fromConsole.json());
    expect(shown.customer).toEqual({ id: "", name: ACCOUNT_DELETION_TEXT.formerCustomer, email: "" });
    expect(shown.total).toBe(25);
    const listed = (await admin.get("/api/admin/orders?limit=100")).json() as AdminOrder[];
    expect(listed.find((o) => o._id === orderId)?.customer.name).toBe(ACCOUNT_DELETION_TEXT.formerCustomer);
    expect(((await admin.get("/api/admin/orders?customer=leaver&limit=100")).json() as AdminOrder[]).some((o) => o._id === orderId)).toBe(false);
    // The admin can still move it along.
    expect((await admin.post(`/api/admin/orders/${orderId}/status`, { status: "cancelled" })).statusCode).toBe(200);

    // The e-mail is free again: a new account starts with nothing.
    const again = new Client(t.app, "10.70.1.4");
    expect((await again.signUp("Lee Again", email)).statusCode).toBe(200);
    expect((await again.get("/api/order")).json()).toEqual([]);
  });

  it("counts wrong passwords like failed sign-ins from that device", async () => {
    const email = uniqueEmail("guessed");
    const c = new Client(t.app, "10.70.2.1");
    expect((await c.signUp("Guessed", email)).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await c.post("/api/me/delete-account", { password: `Wr0ng!pass${i}` })).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect((await sessionOf(c))?.user.email).toBe(email);
  });

  it("keeps the store's last admin", async () => {
    const res = await admin.post("/api/me/delete-account", { password: PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: "LAST_ADMIN", message: ACCOUNT_DELETION_TEXT.lastAdmin });
    expect((await sessionOf(admin))?.user.email).toBe(ADMIN);
  });

  it("deletes a Google-only account after a fresh sign-in, not an old one", async () => {
    const email = uniqueEmail("google");
    const c = new Client(t.app, "10.70.3.1");
    const back = await googleLogin(c, ORIGIN, email);
    expect(back.status).toBe(302);
    const id = (await sessionOf(c))?.user.id as string;
    expect(id).toBeTruthy();

    // A sign-in older than 5 minutes does not do.
    await t.app.store.db.execute(sql`update session set created_at = now() - interval '6 minutes' where user_id = ${id}`);
    const stale = await c.post("/api/me/delete-account", {});
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ error: "SESSION_NOT_FRESH", message: ACCOUNT_DELETION_TEXT.notFresh });

    // Signing in with Google again does.
    expect((await googleLogin(c, ORIGIN, email)).status).toBe(302);
    expect((await c.post("/api/me/delete-account", {})).statusCode).toBe(200);
    expect(await count(sql`select count(*)::int as n from "user" where id = ${id}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from account where user_id = ${id}`)).toBe(0);
  });

  it("fails only the order of an account deleted while it waited at the desk; its batch is placed", async () => {
    const ids: string[] = [];
    for (const name of ["first", "second"]) {
      const c = new Client(t.app, "10.70.4.1");
      expect((await c.signUp(name, uniqueEmail(name))).statusCode).toBe(200);
      ids.push((await sessionOf(c))?.user.id as string);
    }
    const [first, second] = ids as [string, string];
    const desk = new OrderDesk(t.app.store.db);
    // The first order is served alone; the next two wait for it and are served together,
    // one of them for an account that no longer exists (as if deleted meanwhile).
    const results = await Promise.allSettled([
      desk.place(first, { toolId, quantity: 1 }),
      desk.place(second, { toolId, quantity: 1 }),
      desk.place("deleted-account-id", { toolId, quantity: 1 }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    const refused = (results[2] as PromiseRejectedResult).reason as ApiError;
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.statusCode).toBe(401);
    expect(await count(sql`select count(*)::int as n from orders where user_id = ${second} and tool_id = ${toolId}`)).toBe(1);
  });
});

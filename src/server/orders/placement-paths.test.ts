/**
 * One way to place an order (DESIGN "One way to place an order"): the same rule table through
 * every placement path, on PGlite and on Postgres, with the same outcome on each. A rule added
 * to the placement (orders/placement.ts) holds on every path at once; a path that priced or
 * checked on its own would differ here.
 *
 * Each row sets a tool (and the customer) up so the order would be fine, lets the path prepare
 * it (the cart's line is added while it still fits; the quote is asked for and answered), then
 * changes what the rule is about (the minimum, the stock, the catalogue, a tier, a code, the
 * customer's exemption) and places the order. The outcome, normalized across the paths' own answer
 * shapes, is compared with the row's. A quote is never re-priced (DESIGN "Quotes"): where a row is
 * about the price (a tier, a code, an exemption since the revision was sent), its acceptance gives
 * the quoted cents, and the row says so (`quoted`).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutResultSchema, orderSchema, type Order } from "../../contract/schemas";
import { promotions, taxRates } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const ADMIN = "rules-admin@toolyard.example";
const PRICE = 40;

/** What a placement did, in words every path shares. */
type Outcome =
  | { placed: { unitPrice: number; lineTotal: number; subtotal: number; discount: number; shipping: number; tax: number; total: number; taxExemptCertificate: string | null; promoCode: string | null; invoiced: boolean }; stock: number }
  | { refused: string; stock: number };

interface Setup {
  admin: Client;
  toolId: string;
  customer: Client;
  userId: string;
  quantity: number;
  promoCode?: string;
  quoteId?: string;
}

interface Path {
  name: string;
  /** Before the rule's change: what the customer (and the owner) did while the order still fitted. */
  prepare(s: Setup): Promise<void>;
  /** Places the order and answers what happened, the path's answer shape normalized. */
  place(s: Setup): Promise<Omit<Outcome, "stock">>;
}

const placedOf = (order: Order) => ({
  unitPrice: order.lines[0]?.unitPrice ?? NaN,
  lineTotal: order.lines[0]?.lineTotal ?? NaN,
  subtotal: order.subtotal,
  discount: order.discount,
  shipping: order.shipping,
  tax: order.tax,
  total: order.total,
  taxExemptCertificate: order.taxExemptCertificate,
  promoCode: order.promoCode,
  invoiced: order.invoiceNumber !== null,
});

const PATHS: Path[] = [
  {
    name: "cart checkout (POST /api/checkout)",
    async prepare({ customer, toolId, quantity }) {
      const res = await customer.put(`/api/cart/lines/${toolId}`, { quantity });
      expect(res.statusCode, res.body).toBe(200);
    },
    async place({ customer, promoCode }) {
      const res = await customer.request({
        method: "POST",
        url: "/api/checkout",
        payload: { address: "1 Main St", phone: "+1 555 0100", paymentMethod: "cash_on_delivery", ...(promoCode ? { promoCode } : {}) },
        headers: { "idempotency-key": randomUUID() },
      });
      if (res.statusCode === 201) return { placed: placedOf(checkoutResultSchema.parse(res.json()).order) };
      const body = res.json();
      return { refused: body.error === "CART_PROBLEMS" ? body.lines[0].problem : body.error };
    },
  },
  {
    name: "purchase page (POST /api/order)",
    async prepare() {},
    async place({ customer, toolId, quantity, promoCode }) {
      const res = await customer.post("/api/order", { toolId, quantity, ...(promoCode ? { promoCode } : {}) });
      if (res.statusCode === 201) return { placed: placedOf(orderSchema.parse(res.json())) };
      const body = res.json();
      return { refused: res.statusCode === 404 ? "UNAVAILABLE" : body.error };
    },
  },
  {
    name: "quote acceptance (POST /api/quotes/:id/accept)",
    // The customer asks; the owner answers at the list price, for collection at the store (taxed there), before the rule's change.
    async prepare(s) {
      const requested = await s.customer.post("/api/quotes", { lines: [{ toolId: s.toolId, quantity: s.quantity }] });
      expect(requested.statusCode, requested.body).toBe(201);
      s.quoteId = requested.json()._id as string;
      const revision = await s.admin.post(`/api/admin/quotes/${s.quoteId}/revisions`, {
        lines: [{ toolId: s.toolId, quantity: s.quantity, unitPrice: PRICE }],
        shipping: 0,
        validUntil: new Date(Date.now() + 86_400_000).toISOString(),
      });
      expect(revision.statusCode, revision.body).toBe(201);
    },
    async place({ customer, quoteId }) {
      const res = await customer.request({
        method: "POST",
        url: `/api/quotes/${quoteId}/accept`,
        payload: { revision: 1, paymentMethod: "cash_on_delivery" },
        headers: { "idempotency-key": randomUUID() },
      });
      if (res.statusCode === 201) return { placed: placedOf(orderSchema.parse(res.json().order)) };
      const body = res.json();
      return { refused: body.lines?.[0]?.problem ?? body.error };
    },
  },
];

/**
 * What a quote's acceptance gives where a rule is about the price: the quoted cents, never
 * re-priced, whatever the tiers, codes or exemptions say since (DESIGN "Quotes"). The rules about
 * the lines (tool, minimum, stock) give every path the same outcome.
 */
const asQuoted = (quantity: number, stock: number): Outcome => {
  const subtotal = PRICE * quantity;
  const tax = Math.round(subtotal * 8) / 100;
  return {
    placed: { unitPrice: PRICE, lineTotal: subtotal, subtotal, discount: 0, shipping: 0, tax, total: Math.round((subtotal + tax) * 100) / 100, taxExemptCertificate: null, promoCode: null, invoiced: true },
    stock,
  };
};

describe.each(drivers())("the rule table through every placement path on %s", (driver) => {
  let t: TestApp;
  let admin: Client;

  const newTool = async () => {
    const res = await admin.post("/api/admin/tools", {
      name: `Rule tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price: PRICE,
      availableQuantity: 10,
      minimumQuantity: 1,
      description: "For the rule table.",
      category: "hand-tools",
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json()._id as string;
  };
  const stockOf = async (toolId: string) => (await admin.get(`/api/admin/tools/${toolId}`)).json().tool.availableQuantity as number;
  const newCode = async (over: Partial<typeof promotions.$inferInsert> = {}) => {
    const code = `RULE${randomUUID().slice(0, 6).toUpperCase()}`;
    await t.app.store.db.insert(promotions).values({ code, kind: "percent", value: 10, ...over });
    return code;
  };

  /** Each rule: what it changes after the path prepared the order, and the outcome every path must give. */
  const ROWS: { rule: string; quantity: number; change?: (s: Setup) => Promise<void>; expected: Outcome; quoted?: Outcome }[] = [
    {
      rule: "an order that fits: the list price, taxed at the store's address (New York, 8 %)",
      quantity: 3,
      expected: {
        placed: { unitPrice: 40, lineTotal: 120, subtotal: 120, discount: 0, shipping: 0, tax: 9.6, total: 129.6, taxExemptCertificate: null, promoCode: null, invoiced: true },
        stock: 7,
      },
    },
    {
      rule: "a quantity that reaches a price tier (added since): the tier's unit price, the line exactly that × the quantity",
      quantity: 6,
      change: async ({ toolId }) =>
        void expect(
          (
            await admin.request({
              method: "PATCH",
              url: `/api/admin/tools/${toolId}`,
              payload: { priceTiers: [{ minQuantity: 5, price: 35.55 }, { minQuantity: 10, price: 30 }] },
            })
          ).statusCode,
        ).toBe(200),
      // 6 × 35.55 = 213.30; 8 % of it is 17.064 → 17.06.
      expected: {
        placed: { unitPrice: 35.55, lineTotal: 213.3, subtotal: 213.3, discount: 0, shipping: 0, tax: 17.06, total: 230.36, taxExemptCertificate: null, promoCode: null, invoiced: true },
        stock: 4,
      },
      quoted: asQuoted(6, 4),
    },
    {
      rule: "a quantity below the first tier: the list price",
      quantity: 4,
      change: async ({ toolId }) =>
        void expect((await admin.request({ method: "PATCH", url: `/api/admin/tools/${toolId}`, payload: { priceTiers: [{ minQuantity: 5, price: 35 }] } })).statusCode).toBe(200),
      expected: {
        placed: { unitPrice: 40, lineTotal: 160, subtotal: 160, discount: 0, shipping: 0, tax: 12.8, total: 172.8, taxExemptCertificate: null, promoCode: null, invoiced: true },
        stock: 6,
      },
    },
    {
      rule: "below the tool's minimum (raised since)",
      quantity: 3,
      change: async ({ toolId }) => void expect((await admin.request({ method: "PATCH", url: `/api/admin/tools/${toolId}`, payload: { minimumQuantity: 5 } })).statusCode).toBe(200),
      expected: { refused: "BELOW_MINIMUM", stock: 10 },
    },
    {
      rule: "not enough stock (sold or corrected since)",
      quantity: 3,
      change: async ({ toolId }) =>
        void expect((await admin.post(`/api/admin/tools/${toolId}/stock`, { delta: -8, reason: "correction", note: "counted" })).statusCode).toBe(200),
      expected: { refused: "NOT_ENOUGH_STOCK", stock: 2 },
    },
    {
      rule: "a tool archived since",
      quantity: 3,
      change: async ({ toolId }) => void expect((await admin.request({ method: "PATCH", url: `/api/admin/tools/${toolId}`, payload: { active: false } })).statusCode).toBe(200),
      expected: { refused: "UNAVAILABLE", stock: 10 },
    },
    {
      rule: "a promotion code: 10 % off, spread over the lines, then taxed",
      quantity: 3,
      change: async (s) => {
        s.promoCode = await newCode();
      },
      expected: {
        placed: { unitPrice: 40, lineTotal: 120, subtotal: 120, discount: 12, shipping: 0, tax: 8.64, total: 116.64, taxExemptCertificate: null, promoCode: "(the code)", invoiced: true },
        stock: 7,
      },
      // A quote takes no code: its prices are the quote's.
      quoted: asQuoted(3, 7),
    },
    {
      rule: "a promotion code used up",
      quantity: 3,
      change: async (s) => {
        s.promoCode = await newCode({ usageLimit: 1, redemptions: 1 });
      },
      expected: { refused: "PROMO_USED_UP", stock: 10 },
      quoted: asQuoted(3, 7),
    },
    {
      rule: "a tax-exempt customer: no tax, the certificate on the order",
      quantity: 3,
      change: async ({ userId }) =>
        void expect((await admin.request({ method: "PATCH", url: `/api/admin/users/${userId}/tax-exempt`, payload: { taxExemptCertificate: "NY-EX-1" } })).statusCode).toBe(200),
      expected: {
        placed: { unitPrice: 40, lineTotal: 120, subtotal: 120, discount: 0, shipping: 0, tax: 0, total: 120, taxExemptCertificate: "NY-EX-1", promoCode: null, invoiced: true },
        stock: 7,
      },
      // Exempted after the revision was sent: the quote keeps the tax it was sent with.
      quoted: asQuoted(3, 7),
    },
  ];

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.41.0.1");
    await admin.signUp("Admin", ADMIN);
    await t.app.store.db.insert(taxRates).values({ country: "US", region: "NY", name: "New York", rateBasisPoints: 800 });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe.each(PATHS)("$name", (path) => {
    it.each(ROWS)("$rule", async (row) => {
      const customer = new Client(t.app, `10.41.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
      expect((await customer.signUp("Rule customer", uniqueEmail("rules"))).statusCode).toBe(200);
      const userId = (await customer.get("/api/auth/get-session")).json().user.id as string;
      const setup: Setup = { admin, toolId: await newTool(), customer, userId, quantity: row.quantity };
      await path.prepare(setup);
      await row.change?.(setup);
      const outcome = { ...(await path.place(setup)), stock: await stockOf(setup.toolId) };
      const quoted = path.name.startsWith("quote") && row.quoted !== undefined;
      const own = quoted ? (row.quoted as Outcome) : row.expected;
      const expected = !quoted && "placed" in own && own.placed.promoCode ? { ...own, placed: { ...own.placed, promoCode: setup.promoCode ?? null } } : own;
      expect(outcome).toEqual(expected);
    });
  });
});

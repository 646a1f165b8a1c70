/**
 * Ports and addresses shared by the Playwright config, its global setup and the specs.
 * `npm run test:e2e` (scripts/e2e.mjs) asks the OS for two free ports and passes them in
 * E2E_PORT and E2E_OIDC_PORT, so two checkouts can run the browser tests at once; the fixed
 * ports are only for running Playwright directly.
 */
export const APP_PORT = Number(process.env.E2E_PORT ?? 3210);
export const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? APP_PORT + 1);
export const APP_URL = `http://localhost:${APP_PORT}`;
export const ADMIN_EMAIL = "admin@toolyard.example";
export const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
export const PASSWORD = "Str0ng!pass";

/**
 * The tool the buying spec owns, so no parallel test moves the stock it asserts. The global setup
 * makes it through the admin API before any test runs (made during a test, it would change the
 * catalogue's totals under the catalogue specs) and passes its id in E2E_BUYING_TOOL_ID.
 * Hand tools, and no "saw" in it: the catalogue specs filter chainsaws, lawn mowers and saws.
 */
export const BUYING_TOOL = {
  name: "Rubber Mallet, kept for the buying test",
  image: "/images/tools/claw-hammer.svg",
  price: 12.5,
  availableQuantity: 40,
  minimumQuantity: 3,
  description: "A two-pound rubber mallet that only the buying test orders, so its stock is known.",
  category: "hand-tools",
} as const;

/**
 * The tools the cart spec owns (made by the global setup like the buying test's; their ids in
 * E2E_CART_TOOL_IDS, in this order). Hand tools without "saw" in their names, for the same reason.
 */
export const CART_TOOLS = [
  {
    name: "Claw Hammer, kept for the cart test",
    image: "/images/tools/claw-hammer.svg",
    price: 19.99,
    availableQuantity: 60,
    minimumQuantity: 1,
    description: "A claw hammer that only the cart test orders.",
    category: "hand-tools",
  },
  {
    name: "Spanner Set, kept for the cart test",
    image: "/images/tools/claw-hammer.svg",
    price: 35.5,
    availableQuantity: 60,
    minimumQuantity: 2,
    description: "A spanner set that only the cart test orders; sold two at a time.",
    category: "hand-tools",
  },
  {
    name: "Chisel Set, kept for the cart test",
    image: "/images/tools/claw-hammer.svg",
    price: 18,
    availableQuantity: 40,
    minimumQuantity: 1,
    description: "A chisel set whose stock the cart test takes away from under a waiting checkout.",
    category: "hand-tools",
  },
  {
    name: "Pliers, kept for the cart test",
    image: "/images/tools/claw-hammer.svg",
    price: 9.25,
    availableQuantity: 40,
    minimumQuantity: 1,
    description: "Pliers ordered beside the chisel set, to show a refused checkout takes nothing.",
    category: "hand-tools",
  },
] as const;

/**
 * The tool the admin console's spec owns (made by the global setup; its id in
 * E2E_ADMIN_TOOL_ID): its customers order it and the console moves those orders along.
 * Hand tools without "saw" in its name, for the catalogue specs' sake.
 */
export const ADMIN_SPEC_TOOL = {
  name: "Spirit Level, kept for the admin console test",
  image: "/images/tools/claw-hammer.svg",
  price: 27,
  availableQuantity: 200,
  minimumQuantity: 1,
  description: "A 60 cm spirit level that only the admin console's test orders.",
  category: "hand-tools",
} as const;

/**
 * The tool the money spec (checkout-money.spec.ts) owns (made by the global setup; its id in
 * E2E_MONEY_TOOL_ID): priced with shipping, tax and codes, so no other spec's totals move.
 * Hand tools without "saw" in its name, for the catalogue specs' sake; 1 kg, the default weight.
 */
export const MONEY_TOOL = {
  name: "Bench Vice, kept for the money test",
  image: "/images/tools/claw-hammer.svg",
  price: 40,
  availableQuantity: 500,
  minimumQuantity: 1,
  description: "A cast-iron bench vice that only the money test orders, with shipping, tax and a code.",
  category: "hand-tools",
} as const;

/**
 * The tool the card payment spec (card-payment.spec.ts) owns (made by the global setup; its id in
 * E2E_CARD_TOOL_ID): its orders hold stock while they await payment and give it back when the
 * payment page expires, so no other spec's stock moves. Hand tools without "saw" in its name.
 */
export const CARD_TOOL = {
  name: "Tape Measure, kept for the card payment test",
  image: "/images/tools/claw-hammer.svg",
  price: 14.75,
  availableQuantity: 100,
  minimumQuantity: 1,
  description: "A five-metre tape measure that only the card payment test orders.",
  category: "hand-tools",
} as const;

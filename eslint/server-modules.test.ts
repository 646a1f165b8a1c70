import path from "node:path";
import { RuleTester } from "eslint";
import { afterAll, describe, it } from "vitest";
import { serverModules } from "./server-modules.js";

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;

// The rule reads the real tree: orders/ and jobs/ have an index.ts, cart/ has none.
const root = path.resolve(import.meta.dirname, "..");
const file = (inner: string) => path.join(root, inner);
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: "module" } });

tester.run("toolyard/server-modules", serverModules, {
  valid: [
    { filename: file("src/server/payments/refunds.ts"), code: 'import { moveInTransaction } from "../orders";' },
    { filename: file("src/server/payments/refunds.ts"), code: 'import { moveInTransaction } from "../orders/index";' },
    { filename: file("src/server/payments/refunds.ts"), code: 'import { moveInTransaction } from "../orders/index.ts";' },
    { filename: file("src/server/admin/routes.ts"), code: 'import { jobAdminRoutes } from "../jobs";' },
    // inside the module, its files are free
    { filename: file("src/server/orders/routes.ts"), code: 'import { placeOrders } from "./placement";' },
    { filename: file("src/server/orders/shipments.ts"), code: 'import { moveInTransaction } from "../orders/service";' },
    // a folder without an index.ts is not a module
    { filename: file("src/server/payments/service.ts"), code: 'import { x } from "../cart/checkout";' },
    // files outside src/server and package imports are not its business
    { filename: file("src/server/app.ts"), code: 'import { orderRoutes } from "./orders";' },
    { filename: file("src/server/orders/service.ts"), code: 'import { z } from "zod";' },
    { filename: file("src/web/lib/api.ts"), code: 'import { x } from "../../contract/schemas";' },
  ],
  invalid: [
    { filename: file("src/server/payments/refunds.ts"), code: 'import { moveInTransaction } from "../orders/service";', errors: [{ messageId: "deep" }] },
    { filename: file("src/server/admin/routes.ts"), code: 'import { jobAdminRoutes } from "../jobs/admin-routes";', errors: [{ messageId: "deep" }] },
    { filename: file("src/server/app.ts"), code: 'import { orderRoutes } from "./orders/routes";', errors: [{ messageId: "deep" }] },
    { filename: file("src/server/profile/delete-account.test.ts"), code: 'import { OrderDesk } from "../orders/desk";', errors: [{ messageId: "deep" }] },
    { filename: file("src/server/quotes/accept.ts"), code: 'export { placeOrders } from "../orders/placement";', errors: [{ messageId: "deep" }] },
    { filename: file("src/server/quotes/accept.ts"), code: 'export * from "../orders/placement";', errors: [{ messageId: "deep" }] },
    { filename: file("src/server/quotes/accept.ts"), code: 'const m = () => import("../orders/placement");', errors: [{ messageId: "deep" }] },
    { filename: file("bench/checkout.ts"), code: 'import { placeOrders } from "../src/server/orders/placement";', errors: [{ messageId: "deep" }] },
    { filename: file("tests/e2e/x.spec.ts"), code: 'import { x } from "../../src/server/jobs/runner";', errors: [{ messageId: "deep" }] },
  ],
});

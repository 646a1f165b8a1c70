import path from "node:path";
import { RuleTester } from "eslint";
import { afterAll, describe, it } from "vitest";
import { featureBoundaries } from "./feature-boundaries.js";

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;

const web = path.resolve(import.meta.dirname, "../src/web");
const file = (inner: string) => path.join(web, inner);
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: "module" } });

tester.run("toolyard/feature-boundaries", featureBoundaries, {
  valid: [
    { filename: file("features/dashboard/my-orders.tsx"), code: 'import { ordersQuery } from "../account";' },
    { filename: file("features/dashboard/my-orders.tsx"), code: 'import { ordersQuery } from "../account/index";' },
    { filename: file("features/catalog/components/tool-card.tsx"), code: 'import { toolQuery } from "../api";' },
    { filename: file("app/router.tsx"), code: 'import { HomePage } from "../features/home";' },
    { filename: file("app/router.tsx"), code: 'const Page = () => import("../features/pages/about-page");' },
    { filename: file("lib/api.ts"), code: 'import { x } from "../../contract/schemas";' },
  ],
  invalid: [
    { filename: file("features/dashboard/my-orders.tsx"), code: 'import { ordersQuery } from "../account/api";', errors: [{ messageId: "deep" }] },
    { filename: file("features/dashboard/nested/deep.tsx"), code: 'import { x } from "../../catalog/components/tool-card";', errors: [{ messageId: "deep" }] },
    { filename: file("features/home/home-page.tsx"), code: 'export { ToolCard } from "../catalog/components/tool-card";', errors: [{ messageId: "deep" }] },
    { filename: file("features/home/home-page.tsx"), code: 'const Page = () => import("../pages/about-page");', errors: [{ messageId: "deep" }] },
    { filename: file("app/router.tsx"), code: 'import { RequireAuth } from "../features/auth/require-auth";', errors: [{ messageId: "deep" }] },
  ],
});

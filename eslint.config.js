import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import { featureBoundaries } from "./eslint/feature-boundaries.js";
import { serverModules } from "./eslint/server-modules.js";

const toolyard = { rules: { "feature-boundaries": featureBoundaries, "server-modules": serverModules } };

export default tseslint.config(
  { ignores: ["dist/**", "data/**", "node_modules/**", "test-results/**", "playwright-report/**", "public/**"] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-non-null-assertion": "error",
    },
  },
  {
    files: ["src/web/**/*.{ts,tsx}"],
    plugins: { toolyard },
    rules: { "toolyard/feature-boundaries": "error" },
  },
  {
    // server folders with an index.ts are modules with one way in (issue 49); anything may import them
    files: ["**/*.{ts,tsx,js,mjs}"],
    plugins: { toolyard },
    rules: { "toolyard/server-modules": "error" },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: globals.node },
  },
);

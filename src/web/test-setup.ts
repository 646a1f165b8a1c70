import "@testing-library/jest-dom/vitest";
import { configure } from "@testing-library/react";

// findBy…/waitFor wait for jsdom to render what a fetch brought, not for a product's timing: the
// library's 1 s failed them on a machine busy with other work (CI runs the server suites beside
// them), while the component was only slow to render there. 5 s, as the test's own timeout below.
configure({ asyncUtilTimeout: 5_000 });

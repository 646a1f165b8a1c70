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

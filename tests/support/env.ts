/** Ports and addresses shared by the Playwright config, its global setup and the specs. */
export const APP_PORT = Number(process.env.E2E_PORT ?? 3210);
export const OIDC_PORT = APP_PORT + 1;
export const APP_URL = `http://localhost:${APP_PORT}`;
export const ADMIN_EMAIL = "admin@toolyard.example";
export const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
export const PASSWORD = "Str0ng!pass";

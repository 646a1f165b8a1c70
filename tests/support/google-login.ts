/**
 * Drives 'Continue With Google' without a browser, for API tests: the store's own
 * /api/auth/sign-in/social, the OpenID stand-in's login and consent forms (tests/support/oidc.ts)
 * over real HTTP, then the store's callback. Returns the callback's answer (a redirect).
 */
import { createServer, type AddressInfo } from "node:net";

/** What googleLogin needs of a client: test-support's Client (app.inject) or http-client's HttpClient. */
export interface ApiResponse {
  statusCode: number;
  body: string;
  json(): unknown;
  headers: Record<string, string | string[] | number | undefined>;
}
export interface ApiClient {
  get(url: string): Promise<ApiResponse>;
  post(url: string, payload: unknown): Promise<ApiResponse>;
}

/** A port the OS says is free (the stand-in's issuer URL must name its port). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A cookie jar for the provider's side (paths ignored: every cookie goes everywhere). */
class Jar {
  private cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
  header = () => [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

/**
 * Signs `login` (the e-mail) in with Google on `client`'s side: the store's state cookie and
 * session cookie stay in `client`. Resolves with the callback's status and Location.
 */
export async function googleLogin(client: ApiClient, appOrigin: string, login: string, callbackURL = "/"): Promise<{ status: number; location: string }> {
  const start = await client.post("/api/auth/sign-in/social", { provider: "google", callbackURL });
  if (start.statusCode !== 200) throw new Error(`sign-in/social answered ${start.statusCode}: ${start.body}`);
  let url = new URL((start.json() as { url: string }).url);
  const jar = new Jar();
  for (let hop = 0; hop < 12; hop++) {
    if (url.origin === appOrigin) {
      const callback = await client.get(`${url.pathname}${url.search}`);
      return { status: callback.statusCode, location: String(callback.headers.location ?? "") };
    }
    let response = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(response);
    if (response.status === 200) {
      // The stand-in's dev interaction: a login form first, then a consent form.
      const html = await response.text();
      const body = html.includes('name="login"') ? new URLSearchParams({ prompt: "login", login, password: "any-password" }) : new URLSearchParams({ prompt: "consent" });
      response = await fetch(url, { method: "POST", redirect: "manual", headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" }, body });
      jar.take(response);
    }
    const location = response.headers.get("location");
    if (!location) throw new Error(`the OpenID stand-in answered ${response.status} without a redirect at ${url.href}`);
    url = new URL(location, url);
  }
  throw new Error("too many redirects on the way back from the OpenID stand-in");
}

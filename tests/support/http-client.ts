/**
 * A client of a store running in another process (the built store, `npm start`), over real HTTP:
 * the same calls as test-support's Client (which drives app.inject), with its own cookie jar.
 */
import type { ApiClient, ApiResponse } from "./google-login";

export class HttpClient implements ApiClient {
  private cookies = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    /** Headers sent with every request (an Origin, an X-Forwarded-For behind a trusted proxy). */
    private readonly headers: Record<string, string> = { origin: new URL(baseUrl).origin },
  ) {}

  async request(method: string, url: string, options: { payload?: unknown; headers?: Record<string, string>; body?: BodyInit } = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...this.headers, ...options.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    let body = options.body;
    if (options.payload !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.payload);
    }
    const response = await fetch(new URL(url, this.baseUrl), { method, headers, body, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || attributes.some((a) => /max-age=0/i.test(a.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    return {
      statusCode: response.status,
      body: text,
      json: () => JSON.parse(text) as unknown,
      headers: Object.fromEntries(response.headers),
    };
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  get = (url: string, headers?: Record<string, string>) => this.request("GET", url, { headers });
  post = (url: string, payload: unknown, headers?: Record<string, string>) => this.request("POST", url, { payload, headers });
  put = (url: string, payload: unknown) => this.request("PUT", url, { payload });
  delete = (url: string) => this.request("DELETE", url);

  signUp(name: string, email: string, password = "Str0ng!pass") {
    return this.post("/api/auth/sign-up/email", { name, email, password });
  }
  signIn(email: string, password = "Str0ng!pass") {
    return this.post("/api/auth/sign-in/email", { email, password });
  }
}

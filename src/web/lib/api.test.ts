import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, ApiRequestError } from "./api";

/** A real HTTP server standing in for the API's list headers. */
let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === "/patched" || request.url === "/refused") {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        const status = request.url === "/refused" ? 400 : 200;
        const answer = status === 400 ? { error: "LAST_ADMIN", message: "The last admin stays an admin." } : { method: request.method, type: request.headers["content-type"], body: JSON.parse(body) as unknown };
        response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(answer));
      });
      return;
    }
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (request.url === "/exact") headers["x-total-count"] = "17";
    if (request.url === "/capped") Object.assign(headers, { "x-total-count": "1000", "x-total-count-exact": "false" });
    if (request.url === "/said-exact") Object.assign(headers, { "x-total-count": "1000", "x-total-count-exact": "true" });
    response.writeHead(200, headers).end(JSON.stringify([{ id: 1 }, { id: 2 }]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("api.list", () => {
  it("reads the total from X-Total-Count, exact unless X-Total-Count-Exact says false", async () => {
    expect(await api.list(`${base}/exact`)).toEqual({ items: [{ id: 1 }, { id: 2 }], total: 17, exact: true });
    expect(await api.list(`${base}/capped`)).toMatchObject({ total: 1000, exact: false });
    expect(await api.list(`${base}/said-exact`)).toMatchObject({ total: 1000, exact: true });
  });

  it("counts the items when there is no total", async () => {
    expect(await api.list(`${base}/none`)).toMatchObject({ total: 2, exact: true });
  });
});

describe("api.patch", () => {
  it("sends a JSON body with PATCH and returns the answer", async () => {
    expect(await api.patch(`${base}/patched`, { role: "admin" })).toEqual({ method: "PATCH", type: "application/json", body: { role: "admin" } });
  });

  it("turns a refusal into an ApiRequestError with the API's code and message", async () => {
    const error: unknown = await api.patch(`${base}/refused`, { role: "user" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 400, code: "LAST_ADMIN", message: "The last admin stays an admin." });
  });
});

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./api";

/** A real HTTP server standing in for the API's list headers. */
let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((request, response) => {
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

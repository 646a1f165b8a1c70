/**
 * GET /feeds/products.xml (issue 51, DESIGN) on PGlite and Postgres: RSS 2.0 with the g:
 * namespace, every active tool once with DESIGN's fields, texts XML-escaped (a name with <&"),
 * a product of several tools grouped, an archived tool left out, and a 304 until the catalogue
 * changes; robots.txt names it.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tool } from "../../contract/schemas";
import { Client, drivers, startTestApp, type TestApp } from "../test-support";

const ADMIN = "feed-admin@toolyard.example";

describe.each(drivers())("the product feed on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  const sku = `FEED-${randomUUID().slice(0, 8)}`;
  const name = `Saw <&"'> ${sku}`;

  const unescape = (text: string) => text.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e] as string);
  /** The feed's items, each field's text; every text node checked to hold no raw < or a bare & (what makes XML ill-formed). */
  const feed = async () => {
    const res = await t.app.inject({ method: "GET", url: "/feeds/products.xml" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/rss\+xml/);
    for (const [, text] of res.body.matchAll(/>([^<]*)</g)) expect(text).not.toMatch(/&(?!(lt|gt|quot|apos|amp);)|>/);
    const items = [...res.body.matchAll(/<item>([\s\S]*?)<\/item>/g)].map(([, body = ""]) => {
      const field = (name: string) => {
        const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(body);
        return m ? unescape(m[1] as string) : undefined;
      };
      return {
        id: field("g:id"),
        title: field("g:title"),
        link: field("link"),
        image: field("g:image_link"),
        price: field("g:price"),
        availability: field("g:availability"),
        brand: field("g:brand"),
        gtin: field("g:gtin"),
        condition: field("g:condition"),
        group: field("g:item_group_id"),
      };
    });
    return { items, res };
  };

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000", PUBLIC_URL: "https://shop.example" });
    admin = new Client(t.app, "10.51.3.1", "https://shop.example");
    expect((await admin.signUp("Admin", ADMIN)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists every active tool once with DESIGN's fields, XML-escaped, grouping a product's tools", async () => {
    const res = await admin.post("/api/admin/tools", {
      name,
      sku,
      gtin: "4006381333931",
      brand: "voltline",
      image: "/images/tools/jigsaw.svg",
      price: 24.99,
      availableQuantity: 0,
      minimumQuantity: 1,
      description: "Cuts <curves> & corners.",
      category: "power-tools",
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Tool;
    const { items: all, res: answer } = await feed();
    expect(answer.body).toContain(`<g:title>Saw &lt;&amp;&quot;&apos;&gt; ${sku}</g:title>`);
    expect(answer.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0" xmlns:g="http:\/\/base.google.com\/ns\/1.0">\n<channel>\n/);
    expect(answer.body.endsWith("</channel>\n</rss>\n")).toBe(true);
    const activeTools = (await t.app.inject({ method: "GET", url: "/api/tool?variants=all&limit=100" })).json() as Tool[];
    expect(all.map((i) => i.id).sort()).toEqual(activeTools.map((tool) => tool.sku).sort());
    expect(all.find((i) => i.id === sku)).toEqual({
      id: sku,
      title: name,
      link: `https://shop.example/tools/${created._id}`,
      image: "https://shop.example/images/tools/jigsaw.svg",
      price: "24.99 USD",
      availability: "out_of_stock",
      brand: "Voltline",
      gtin: "4006381333931",
      condition: "new",
      group: undefined,
    });
    // The demo's chainsaw is a product of three: its items share the product's id.
    const saws = activeTools.filter((tool) => tool.product?.name === "Timberwolf Petrol Chainsaw 45 cc");
    expect(saws.length).toBe(3);
    for (const saw of saws) expect(all.find((i) => i.id === saw.sku)?.group).toBe(saw.product?._id);
    expect(all.find((i) => i.id === saws[0]?.sku)?.availability).toBe(saws[0] && saws[0].availableQuantity > 0 ? "in_stock" : "out_of_stock");
  });

  it("answers 304 to its ETag until the catalogue changes; an archived tool leaves it", async () => {
    const { res } = await feed();
    const etag = res.headers.etag as string;
    expect(etag).toBeTruthy();
    expect((await t.app.inject({ method: "GET", url: "/feeds/products.xml", headers: { "if-none-match": etag } })).statusCode).toBe(304);
    const tool = ((await t.app.inject({ method: "GET", url: `/api/tool?q=${encodeURIComponent(sku)}` })).json() as Tool[])[0] ?? ((await admin.get(`/api/admin/tools?q=${sku}`)).json() as Tool[])[0];
    expect(tool?.sku).toBe(sku);
    expect((await admin.request({ method: "PATCH", url: `/api/admin/tools/${tool?._id}`, payload: { active: false } })).statusCode).toBe(200);
    const after = await t.app.inject({ method: "GET", url: "/feeds/products.xml", headers: { "if-none-match": etag } });
    expect(after.statusCode).toBe(200);
    expect(after.body).not.toContain(sku);
  });

  it("is named in robots.txt beside the sitemap", async () => {
    const robots = await t.app.inject({ method: "GET", url: "/robots.txt" });
    expect(robots.body).toContain("Sitemap: https://shop.example/sitemap.xml\nSitemap: https://shop.example/feeds/products.xml\n");
  });
});

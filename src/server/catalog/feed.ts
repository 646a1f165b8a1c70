/**
 * The product feed for shopping channels (issue 51, DESIGN `GET /feeds/products.xml`): RSS 2.0
 * with Google's `g:` namespace, one item per active tool, read in SKU batches (keyset, as the
 * export) and written as it is read, so a 100,000-tool feed starts at once in bounded memory.
 * Every text is XML-escaped. Its ETag is a fingerprint of the catalogue (the tools' count and
 * latest change, the products' and the brands'), so a channel revalidating gets a 304 until the
 * catalogue changes.
 */
import { Readable } from "node:stream";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { centsText } from "./spreadsheet";
import type { Db } from "../db/client";
import { brands, products, tools } from "../db/schema";

const BATCH = 1_000;
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Text as XML character data or an attribute value; characters XML 1.0 forbids are dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** A weak validator of everything the feed shows: it changes whenever a tool, product or brand does. */
export async function feedFingerprint(db: Db): Promise<string> {
  const [row] = rowsOf<{ f: string }>(
    await db.execute(sql`select md5(concat_ws(':',
      (select count(*)::text || '-' || coalesce(max(${tools.updatedAt})::text, '') from ${tools}),
      (select count(*)::text || '-' || coalesce(max(${products.updatedAt})::text, '') from ${products}),
      (select md5(coalesce(string_agg(${brands.id} || ${brands.slug} || ${brands.name}, ',' order by ${brands.id}), '')) from ${brands}))) as f`),
  );
  return `W/"${row?.f ?? "0"}"`;
}

const tag = (name: string, value: string) => `<${name}>${xmlEscape(value)}</${name}>`;

async function* feedChunks(db: Db, base: string, title: string, description: string): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">\n<channel>\n';
  yield `${tag("title", title)}\n${tag("link", `${base}/tools`)}\n${tag("description", description)}\n`;
  const brandName = new Map((await db.select({ id: brands.id, name: brands.name }).from(brands)).map((b) => [b.id, b.name]));
  let last: string | undefined;
  for (;;) {
    const batch = await db
      .select({
        id: tools.id,
        sku: tools.sku,
        name: tools.name,
        description: tools.description,
        image: tools.image,
        priceCents: tools.priceCents,
        availableQuantity: tools.availableQuantity,
        brandId: tools.brandId,
        gtin: tools.gtin,
        productId: tools.productId,
      })
      .from(tools)
      .where(and(eq(tools.active, true), last === undefined ? undefined : gt(tools.sku, last)))
      .orderBy(asc(tools.sku))
      .limit(BATCH);
    if (batch.length === 0) break;
    // A product of several active tools groups its items; a product of one is a plain item.
    const productIds = [...new Set(batch.flatMap((t) => (t.productId ? [t.productId] : [])))];
    const sizes = new Map(
      productIds.length === 0
        ? []
        : (
            await db
              .select({ productId: tools.productId, n: sql<number>`count(*)`.mapWith(Number) })
              .from(tools)
              .where(and(eq(tools.active, true), inArray(tools.productId, productIds)))
              .groupBy(tools.productId)
          ).map((r) => [r.productId, r.n]),
    );
    let items = "";
    for (const tool of batch) {
      const link = `${base}/tools/${encodeURIComponent(tool.id)}`;
      const brand = tool.brandId ? brandName.get(tool.brandId) : undefined;
      const lines = [
        tag("g:id", tool.sku),
        tag("g:title", tool.name),
        tag("g:description", tool.description),
        tag("link", link),
        tag("g:link", link),
        tag("g:image_link", tool.image.startsWith("/") ? `${base}${tool.image}` : tool.image),
        tag("g:price", `${centsText(tool.priceCents)} USD`),
        tag("g:availability", tool.availableQuantity > 0 ? "in_stock" : "out_of_stock"),
        ...(brand ? [tag("g:brand", brand)] : []),
        ...(tool.gtin ? [tag("g:gtin", tool.gtin)] : []),
        tag("g:condition", "new"),
        ...(tool.productId && (sizes.get(tool.productId) ?? 0) > 1 ? [tag("g:item_group_id", tool.productId)] : []),
      ];
      items += `<item>\n${lines.join("\n")}\n</item>\n`;
    }
    yield items;
    last = batch[batch.length - 1]?.sku;
  }
  yield "</channel>\n</rss>\n";
}

/** The feed as a stream of UTF-8 text. */
export function productFeed(db: Db, base: string, title: string, description: string): Readable {
  return Readable.from(feedChunks(db, base, title, description));
}

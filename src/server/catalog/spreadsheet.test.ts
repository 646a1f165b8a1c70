/**
 * The catalogue's spreadsheet (issue 51, DESIGN `GET /api/admin/catalogue.csv`,
 * `POST /api/admin/catalogue/imports`, `GET …/imports/:id`) on PGlite and Postgres: the export's
 * columns, the import as a job (202, then its status), matching by SKU, creating brands,
 * categories and products, stock through the ledger, all or nothing on every kind of bad file,
 * and export → import → export giving the same bytes.
 */
import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE_COLUMNS, catalogueImportSchema, type CatalogueImport } from "../../contract/catalogue-io";
import type { Tool } from "../../contract/schemas";
import { CATALOGUE_IO_TEXT } from "../../contract/texts/catalogue-io";
import { catalogueImports } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { runImport, STALE_AFTER_SECONDS } from "./imports";

const ADMIN = "sheet-admin@toolyard.example";

describe.each(drivers())("the catalogue's spreadsheet on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  const tag = randomUUID().slice(0, 6).toUpperCase();

  const exportCsv = async () => {
    const res = await admin.get("/api/admin/catalogue.csv");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    return res.body;
  };
  const upload = (file: string | Buffer, query = "", name = "catalogue.csv") => {
    const boundary = `----toolyard${randomUUID()}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`),
      Buffer.isBuffer(file) ? file : Buffer.from(file, "utf8"),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return admin.request({ method: "POST", url: `/api/admin/catalogue/imports${query}`, payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } });
  };
  const finished = async (id: string): Promise<CatalogueImport> => {
    const end = Date.now() + 60_000;
    for (;;) {
      const res = await admin.get(`/api/admin/catalogue/imports/${id}`);
      expect(res.statusCode, res.body).toBe(200);
      const status = catalogueImportSchema.parse(res.json());
      if (status.status === "done" || status.status === "failed") return status;
      if (Date.now() > end) throw new Error(`import ${id} still ${status.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const imported = async (file: string | Buffer, query = "", name?: string) => {
    const res = await upload(file, query, name);
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json() as { _id: string; status: string };
    expect(started.status).toBe("queued");
    return finished(started._id);
  };
  const toolBySku = async (sku: string) => {
    const res = await admin.get(`/api/admin/tools?q=${encodeURIComponent(sku)}&limit=5`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as (Tool & { active: boolean })[]).find((tool) => tool.sku === sku);
  };
  const header = (specKeys: string[]) => [...CATALOGUE_COLUMNS, ...specKeys.map((k) => `spec:${k}`)].join(",");
  let specKeys: string[] = [];
  /** A row of the export's columns: the given cells, the rest empty. */
  const line = (cells: Record<string, string>) => {
    const columns = [...CATALOGUE_COLUMNS, ...specKeys.map((k) => `spec:${k}`)];
    return columns.map((c) => {
      const v = cells[c] ?? "";
      return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
    }).join(",");
  };
  const base = (sku: string, over: Record<string, string> = {}) => ({
    sku,
    name: `Imported ${sku}`,
    category: "power-tools",
    price: "49.90",
    stock: "4",
    images: "/images/tools/jigsaw.svg",
    description: "From the spreadsheet.",
    ...over,
  });

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.51.2.1");
    expect((await admin.signUp("Admin", ADMIN)).statusCode).toBe(200);
    specKeys = ((await admin.get("/api/admin/specs")).json() as { key: string }[]).map((s) => s.key);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("is the admin's only: 401 without a session, 403 for a customer", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/admin/catalogue.csv" })).statusCode).toBe(401);
    const customer = new Client(t.app, "10.51.2.2");
    expect((await customer.signUp("Customer", uniqueEmail("sheet"))).statusCode).toBe(200);
    expect((await customer.get("/api/admin/catalogue.csv")).statusCode).toBe(403);
    expect((await customer.get(`/api/admin/catalogue/imports/${randomUUID()}`)).statusCode).toBe(403);
    expect((await admin.get(`/api/admin/catalogue/imports/${randomUUID()}`)).statusCode).toBe(404);
  });

  it("exports every tool, one row each, with DESIGN's columns then spec:<key> per definition", async () => {
    const csv = await exportCsv();
    const [head, ...rows] = parse(csv) as string[][];
    expect(head).toEqual([...CATALOGUE_COLUMNS, ...specKeys.map((k) => `spec:${k}`)]);
    expect(specKeys).toContain("voltage");
    const total = ((await admin.get("/api/admin/tools?limit=1")).headers["x-total-count"] as string) ?? "0";
    expect(rows.length).toBe(Number(total));
    const saw = rows.find((row) => row[1] === 'Petrol Chainsaw 45 cc, 18"');
    expect(saw?.[2]).toBe("Timberwolf Petrol Chainsaw 45 cc");
    expect(saw?.[3]).toBe("Bar length");
    expect(saw?.[4]).toBe('18"');
    expect(saw?.[9]).toBe("timberwolf");
    expect(saw?.[10]).toBe("petrol-chainsaws");
    expect(saw?.[11]).toMatch(/^\d+\.\d\d$/);
    expect(saw?.[18]).toContain("|");
    expect(saw?.[20 + specKeys.indexOf("bar_length")]).toBe("18");
  });

  it("imports new tools with brands, categories and products it names, stock through the ledger; then leaves an identical file's rows unchanged", async () => {
    const file = [
      header(specKeys),
      line(base(`NEW-${tag}-1`, { name: 'Drill "Pro", 18 V <&> Ünïcode', brand: `acme-${tag.toLowerCase()}`, category: `power-tools/impact-${tag.toLowerCase()}`, product: `Impact ${tag}`, option1_name: "Kit", option1_value: "Bare", "spec:voltage": "18", description: "Line one\nline two, with a comma" })),
      line(base(`NEW-${tag}-2`, { brand: `acme-${tag.toLowerCase()}`, category: `impact-${tag.toLowerCase()}`, product: `Impact ${tag}`, option1_name: "Kit", option1_value: "Kit", price: "79", price_tiers: "10:70|50:65.5", stock: "7" })),
      "",
    ].join("\r\n");
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(file, "utf8")]);
    const done = await imported(bom, "", "supplier.csv");
    expect(done, JSON.stringify(done.errors)).toMatchObject({ status: "done", dryRun: false, rows: 2, processed: 2, created: 2, updated: 0, unchanged: 0, errors: [] });
    const one = await toolBySku(`NEW-${tag}-1`);
    expect(one?.name).toBe('Drill "Pro", 18 V <&> Ünïcode');
    // A brand named only by its slug gets the slug's words as its name.
    expect(one?.brand?.slug).toBe(`acme-${tag.toLowerCase()}`);
    expect(one?.brand?.name.toLowerCase()).toBe(`acme ${tag.toLowerCase()}`);
    expect(one?.categoryPath.map((c) => c.slug)).toEqual(["power-tools", `impact-${tag.toLowerCase()}`]);
    expect(one?.description).toBe("Line one\nline two, with a comma");
    expect(one?.specs.find((s) => s.key === "voltage")?.value).toBe(18);
    const two = await toolBySku(`NEW-${tag}-2`);
    expect(two?.product?._id).toBe(one?.product?._id);
    expect(two?.product?.options).toEqual([{ name: "Kit", values: ["Bare", "Kit"] }]);
    expect(two?.priceTiers).toEqual([
      { minQuantity: 10, price: 70 },
      { minQuantity: 50, price: 65.5 },
    ]);
    const ledger = ((await admin.get(`/api/admin/tools/${two?._id}`)).json() as { movements: { reason: string; delta: number; note: string }[] }).movements;
    expect(ledger).toEqual([expect.objectContaining({ reason: "import", delta: 7, note: "supplier.csv" })]);

    // The same file again: nothing to do.
    expect(await imported(bom)).toMatchObject({ status: "done", created: 0, updated: 0, unchanged: 2 });
  });

  it("export → import → export gives the same bytes, every row unchanged; an edit comes back as edited, its stock a movement", async () => {
    const first = await exportCsv();
    const rows = (parse(first) as string[][]).length - 1;
    expect(await imported(first)).toMatchObject({ status: "done", rows, created: 0, updated: 0, unchanged: rows });
    expect(await exportCsv()).toBe(first);

    const [head = [], ...records] = parse(first) as string[][];
    const target = records.find((r) => r[0] === `NEW-${tag}-1`) as string[];
    target[head.indexOf("price")] = "59.00";
    target[head.indexOf("stock")] = "9";
    const edited = `${[head, ...records].map((r) => r.map((v) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(",")).join("\n")}\n`;
    expect(await imported(edited, "", "edit.csv")).toMatchObject({ status: "done", updated: 1, unchanged: rows - 1 });
    expect(await exportCsv()).toBe(edited);
    const tool = await toolBySku(`NEW-${tag}-1`);
    const ledger = ((await admin.get(`/api/admin/tools/${tool?._id}`)).json() as { movements: { reason: string; delta: number; note: string }[] }).movements;
    expect(ledger[0]).toEqual(expect.objectContaining({ reason: "import", delta: 5, note: "edit.csv" }));
  });

  it("a dry run says what it would do and writes nothing", async () => {
    const file = [header(specKeys), line(base(`DRY-${tag}`)), ""].join("\n");
    expect(await imported(file, "?dryRun=true")).toMatchObject({ status: "done", dryRun: true, created: 1, updated: 0 });
    expect(await toolBySku(`DRY-${tag}`)).toBeUndefined();
  });

  it("refuses every kind of bad file with errors by line and column, and writes nothing of it", async () => {
    const before = await exportCsv();
    const good = line(base(`BAD-${tag}-0`));
    const cases: [string, string | Buffer, { line: number; column: string }][] = [
      ["not CSV", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x00]), { line: 1, column: "" }],
      ["missing column", `sku,name,category,price\n${`BAD-${tag}-1`},A,power-tools,1\n`, { line: 1, column: "stock" }],
      ["unknown column", `${header(specKeys)},colour\n${good},red\n`, { line: 1, column: "colour" }],
      ["price not a number", [header(specKeys), good, line(base(`BAD-${tag}-2`, { price: "12,50" }))].join("\n"), { line: 3, column: "price" }],
      ["negative stock", [header(specKeys), good, line(base(`BAD-${tag}-3`, { stock: "-1" }))].join("\n"), { line: 3, column: "stock" }],
      ["duplicate SKU", [header(specKeys), good, good].join("\n"), { line: 3, column: "sku" }],
      ["GTIN check digit", [header(specKeys), good, line(base(`BAD-${tag}-4`, { gtin: "4006381333932" }))].join("\n"), { line: 3, column: "gtin" }],
      ["spec of the wrong kind", [header(specKeys), good, line(base(`BAD-${tag}-5`, { "spec:voltage": "eighteen" }))].join("\n"), { line: 3, column: "spec:voltage" }],
      [
        "rows of a product disagree on its options",
        [
          header(specKeys),
          line(base(`BAD-${tag}-6`, { product: `Mixed ${tag}`, option1_name: "Size", option1_value: "S" })),
          line(base(`BAD-${tag}-7`, { product: `Mixed ${tag}`, option1_name: "Colour", option1_value: "Red" })),
        ].join("\n"),
        { line: 3, column: "option1_name" },
      ],
      ["a field with a line break counts as one row", [header(specKeys), line(base(`BAD-${tag}-8`, { description: "a\nb\nc" })), line(base(`BAD-${tag}-9`, { price: "x" }))].join("\n"), { line: 3, column: "price" }],
      ["unknown category slug", [header(specKeys), line(base(`BAD-${tag}-10`, { category: "nowhere" }))].join("\n"), { line: 2, column: "category" }],
    ];
    for (const [name, file, where] of cases) {
      const done = await imported(file);
      expect(done.status, name).toBe("failed");
      expect(done.errors[0], name).toMatchObject(where);
      expect(done.errors[0]?.message.length, name).toBeGreaterThan(5);
    }
    expect(await exportCsv()).toBe(before);
  });

  it("gives a failed import's bad rows to download: the header and every row with an error, as the file had them, past the first 100 errors", async () => {
    const good = (i: number) => line(base(`ROWS-${tag}-${i}`));
    // 120 rows with a bad price (more rows than the 100 errors kept), one with a line break in a field, and good rows between.
    const bad = Array.from({ length: 120 }, (_, i) => line(base(`ROWS-${tag}-B${i}`, { price: "twelve", description: i === 0 ? 'a "quoted",\nbroken field' : "plain" })));
    const file = [header(specKeys), good(1), ...bad.slice(0, 60), good(2), ...bad.slice(60), good(3)].join("\r\n");
    const done = await imported(file, "", "spring stock.csv");
    expect(done.status).toBe("failed");
    expect(done.errors).toHaveLength(100);
    const res = await admin.get(`/api/admin/catalogue/imports/${done._id}/bad-rows.csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    expect(res.headers["content-disposition"]).toBe('attachment; filename="bad-rows-spring_stock.csv"');
    const [head, ...rows] = parse(res.body) as string[][];
    const [fileHead, ...fileRows] = parse(file) as string[][];
    expect(head).toEqual(fileHead);
    // Every bad row, in the file's order, with its cells (the quoted field with its line break) as the file had them.
    expect(rows).toEqual(fileRows.filter((row) => row[0]?.startsWith(`ROWS-${tag}-B`)));
    expect(rows).toHaveLength(120);
    // Put right, the bad rows alone import: rows are matched by SKU.
    const fixed = [fileHead ?? [], ...rows.map((row) => row.map((cell, c) => (fileHead?.[c] === "price" ? "12.00" : cell)))];
    expect((await imported(fixed.map((row) => row.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(",")).join("\n"))).status).toBe("done");
    expect((await toolBySku(`ROWS-${tag}-B0`))?.description).toBe('a "quoted",\nbroken field');

    // No bad rows: an import that did not fail, one that failed on its header; an unknown import; a customer.
    const whole = await imported(`sku,name\nX-${tag},A\n`);
    expect(whole.status).toBe("failed");
    for (const id of [whole._id, (await imported([header(specKeys), good(4)].join("\n")))._id]) {
      const none = await admin.get(`/api/admin/catalogue/imports/${id}/bad-rows.csv`);
      expect(none.statusCode, none.body).toBe(409);
      expect(none.json()).toMatchObject({ error: "NO_BAD_ROWS" });
    }
    expect((await admin.get(`/api/admin/catalogue/imports/${randomUUID()}/bad-rows.csv`)).statusCode).toBe(404);
    const customer = new Client(t.app, "10.51.2.3");
    expect((await customer.signUp("Customer", uniqueEmail("rows"))).statusCode).toBe(200);
    expect((await customer.get(`/api/admin/catalogue/imports/${done._id}/bad-rows.csv`)).statusCode).toBe(403);
  });

  it("writes all or nothing: a failure after the updates, at the last new tool, leaves the catalogue exactly as it was", async () => {
    const before = await exportCsv();
    const [head = [], ...records] = parse(before) as string[][];
    // Every existing tool's price and stock changed, then new tools, the last of which the database refuses.
    const price = head.indexOf("price");
    const stock = head.indexOf("stock");
    const edited = records.map((r) => r.map((v, i) => (i === price ? (Number(v) + 1).toFixed(2) : i === stock ? String(Number(v) + 3) : v)));
    const boom = `BOOM-${tag}`;
    const { db } = t.app.store;
    await db.execute(
      sql.raw(`create or replace function refuse_boom() returns trigger language plpgsql as $$ begin if new.sku = '${boom}' then raise exception 'refused by the test'; end if; return new; end $$`),
    );
    await db.execute(sql.raw("create trigger refuse_boom before insert on tools for each row execute function refuse_boom()"));
    try {
      const quote = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
      const added = [...Array.from({ length: 30 }, (_, i) => `ALL-${tag}-${i}`), boom].map((sku) => line(base(sku)));
      const file = `${[head.join(","), ...edited.map((r) => r.map(quote).join(",")), ...added].join("\n")}\n`;
      const done = await imported(file);
      expect(done).toMatchObject({ status: "failed", errors: [{ line: 1, column: "" }] });
    } finally {
      await db.execute(sql.raw("drop trigger refuse_boom on tools"));
      await db.execute(sql.raw("drop function refuse_boom()"));
    }
    expect(await exportCsv()).toBe(before);
  });

  it("refuses a file over 50 MB with a 413, and a second import while one is queued with a 409 IMPORT_RUNNING", async () => {
    const big = Buffer.alloc(50 * 1024 * 1024 + 10, 0x61);
    const res = await upload(big);
    expect(res.statusCode).toBe(413);
    // Two at once: the partial unique index lets one be queued or running.
    const file = [header(specKeys), line(base(`TWO-${tag}`)), ""].join("\n");
    const [a, b] = await Promise.all([upload(file), upload(file)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([202, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect((refused.json() as { error: string }).error).toBe("IMPORT_RUNNING");
    const accepted = (a.statusCode === 202 ? a : b).json() as { _id: string };
    expect(await finished(accepted._id)).toMatchObject({ status: "done", created: 1 });
  });

  it("holds a new import back only while the running one's instance is alive: one silent for a minute ended with it", async () => {
    // An import some instance is running (its job is another's: none is queued here), its heartbeat as given.
    const running = async (heartbeat: string) => {
      const [row] = await t.app.store.db
        .insert(catalogueImports)
        .values({ dryRun: false, fileName: "elsewhere.csv", file: Buffer.from("sku\n"), status: "running", heartbeatAt: sql`now() - ${heartbeat}::interval` })
        .returning({ id: catalogueImports.id });
      return row?.id ?? "";
    };
    const file = [header(specKeys), line(base(`BEAT-${tag}`)), ""].join("\n");
    const alive = await running("5 seconds");
    const refused = await upload(file);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ error: "IMPORT_RUNNING" });
    await t.app.store.db.update(catalogueImports).set({ status: "done" }).where(eq(catalogueImports.id, alive));

    const dead = await running(`${STALE_AFTER_SECONDS + 5} seconds`);
    const accepted = await upload(file);
    expect(accepted.statusCode, accepted.body).toBe(202);
    expect(await finished((accepted.json() as { _id: string })._id)).toMatchObject({ status: "done", created: 1 });
    expect(await finished(dead)).toMatchObject({ status: "failed", errors: [{ line: 1, column: "", message: CATALOGUE_IO_TEXT.interrupted }] });
    // Its job, expired and run again later, finds it ended and writes nothing.
    await runImport(t.app.store.db, dead);
    expect(await finished(dead)).toMatchObject({ status: "failed" });
  });

  it("a run claims its import with a fresh heartbeat: the job run again after its expiry is not taken for dead", async () => {
    const [row] = await t.app.store.db
      .insert(catalogueImports)
      .values({ dryRun: true, fileName: "beat.csv", file: Buffer.from([header(specKeys), line(base(`PULSE-${tag}`))].join("\n")), status: "running", heartbeatAt: sql`now() - interval '1 hour'` })
      .returning({ id: catalogueImports.id });
    const id = row?.id ?? "";
    await runImport(t.app.store.db, id);
    const [after] = await t.app.store.db
      .select({ status: catalogueImports.status, fresh: sql<boolean>`${catalogueImports.heartbeatAt} > now() - interval '1 minute'` })
      .from(catalogueImports)
      .where(eq(catalogueImports.id, id));
    expect(after).toEqual({ status: "done", fresh: true });
  });
});

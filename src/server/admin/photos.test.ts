/**
 * Photo uploads: a real JPEG, PNG and WebP become resized WebP variants served with long
 * cache headers; a file whose bytes are not one of those (whatever its name says), a damaged
 * image or one over 5 MB gets a clear 400 and leaves no file behind. PGlite and Postgres.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToolSchema, type AdminTool } from "../../contract/admin-schemas";
import { photoSrcSet } from "../../contract/images";
import { Client, drivers, startTestApp, type TestApp } from "../test-support";

const ADMIN = "photo-admin@toolyard.example";
const BOUNDARY = "----toolyard-test-boundary";

function multipart(field: string, filename: string, type: string, bytes: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` } };
}

const picture = (format: "jpeg" | "png" | "webp", width = 1600, height = 1000) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .toFormat(format)
    .toBuffer();

describe.each(drivers())("tool photos on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  let uploadDir: string;
  let tool: AdminTool;
  const files = () => readdirSync(path.join(uploadDir, "tools"));
  const upload = (bytes: Buffer, filename = "photo.jpg", type = "image/jpeg", field = "file") =>
    admin.request({ method: "POST", url: `/api/admin/tools/${tool._id}/image`, ...multipart(field, filename, type, bytes) });

  beforeAll(async () => {
    uploadDir = mkdtempSync(path.join(tmpdir(), "toolyard-photos-"));
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, UPLOAD_DIR: uploadDir });
    admin = new Client(t.app, "10.50.0.1");
    expect((await admin.signUp("Admin", ADMIN)).statusCode).toBe(200);
    const created = await admin.post("/api/admin/tools", {
      name: "Photographed Hammer",
      image: "/images/tools/claw-hammer.svg",
      price: 10,
      availableQuantity: 5,
      minimumQuantity: 1,
      description: "Has its picture taken.",
      category: "hand-tools",
      active: false,
    });
    tool = adminToolSchema.parse(created.json());
  });
  afterAll(async () => {
    await t?.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it.each(["jpeg", "png", "webp"] as const)("turns a %s into resized WebP variants served for a year", async (format) => {
    const before = (await admin.get(`/api/admin/tools/${tool._id}`)).json().tool as AdminTool;
    const res = await upload(await picture(format), `photo.${format}`, `image/${format}`);
    expect(res.statusCode, res.body).toBe(200);
    // An upload is the tool's new image (the spec's console) and is added to its photos, first, the
    // others kept after it in their order (DESIGN "/api/admin/tools (catalogue fields)": uploads add to `images`).
    const photos = (res.json() as AdminTool).images;
    const image = photos[0] as string;
    expect(photos.slice(1)).toEqual(before.images);
    expect((res.json() as AdminTool).image).toBe(image);
    expect(image).toMatch(/^\/uploads\/tools\/.+-640\.webp$/);
    const srcset = photoSrcSet(image);
    expect(srcset).toBeDefined();
    for (const [url, width] of (srcset ?? "").split(", ").map((entry) => entry.split(" "))) {
      const served = await t.app.inject({ method: "GET", url: url as string });
      expect(served.statusCode, url).toBe(200);
      expect(served.headers["content-type"]).toBe("image/webp");
      expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta.format).toBe("webp");
      expect(`${meta.width}w`).toBe(width);
    }
    expect((await admin.get(`/api/admin/tools/${tool._id}`)).json().tool.images[0]).toBe(image);
  });

  it("refuses what is not a JPEG, PNG or WebP by its bytes, a damaged image and a file over 5 MB, leaving nothing behind", async () => {
    const before = files().sort();
    const html = await upload(Buffer.from("<script>alert(1)</script>"), "photo.png", "image/png");
    expect(html.statusCode).toBe(400);
    expect(html.json()).toEqual({ error: "UNSUPPORTED_IMAGE", message: "The photo must be a JPEG, PNG or WebP image." });
    const gif = await upload(await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } }).gif().toBuffer(), "photo.jpg");
    expect(gif.json().error).toBe("UNSUPPORTED_IMAGE");
    const png = await picture("png");
    const damaged = await upload(Buffer.concat([png.subarray(0, 60), Buffer.alloc(500)]), "photo.png", "image/png");
    expect(damaged.statusCode).toBe(400);
    expect(damaged.json().error).toBe("BAD_IMAGE");
    const huge = await upload(Buffer.concat([png.subarray(0, 8), Buffer.alloc(5 * 1024 * 1024 + 10)]), "big.png", "image/png");
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toEqual({ error: "FILE_TOO_LARGE", message: "The photo is larger than 5 MB." });
    const wrongField = await upload(png, "photo.png", "image/png", "picture");
    expect(wrongField.statusCode).toBe(400);
    const json = await admin.post(`/api/admin/tools/${tool._id}/image`, { file: "x" });
    expect(json.statusCode).toBe(400);
    expect(files().sort()).toEqual(before);
  });
});

/**
 * The text a PDF shows, line by line: every content stream (inflated when pdfkit compressed it),
 * each `[...] TJ` array's hex strings decoded as WinAnsi (Latin-1 for what the tests print).
 * Enough for the documents pdfkit writes with its standard fonts (invoices, quotes, statements).
 */
import { inflateSync } from "node:zlib";

export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString("latin1");
  const out: string[] = [];
  for (const m of raw.matchAll(/<<([^]*?)>>\s*stream\r?\n/g)) {
    const length = Number(/\/Length (\d+)/.exec(m[1] ?? "")?.[1]);
    const start = (m.index ?? 0) + m[0].length;
    let data = pdf.subarray(start, start + length);
    if ((m[1] ?? "").includes("/FlateDecode")) data = inflateSync(data);
    for (const tj of data.toString("latin1").matchAll(/\[(.*?)\] TJ/g)) {
      out.push([...(tj[1] ?? "").matchAll(/<([0-9a-f]*)>/g)].map((h) => Buffer.from(h[1] ?? "", "hex").toString("latin1")).join(""));
    }
  }
  return out.join("\n");
}

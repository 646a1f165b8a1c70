import type { ReactNode } from "react";
import { prerenderToNodeStream } from "react-dom/static.node";
import { describe, expect, it } from "vitest";
import { TEXT } from "../../contract/texts/site";
import { PageHeadContext, PageTitle, type PageHead } from "./page-title";

/** The HTML the server's render makes of `element` (entry-server.tsx renders the same way), and what the page recorded. */
async function render(element: ReactNode): Promise<{ html: string; head: PageHead }> {
  const head: PageHead = {};
  const { prelude } = await prerenderToNodeStream(
    <PageHeadContext.Provider value={{ record: (part) => Object.assign(head, part) }}>
      <main>{element}</main>
    </PageHeadContext.Provider>,
  );
  let html = "";
  for await (const chunk of prelude as unknown as AsyncIterable<Uint8Array>) html += Buffer.from(chunk).toString("utf8");
  return { html, head };
}

describe("PageTitle", () => {
  it("is React's document metadata: <title> and <meta name=description> written before the page, for the head", async () => {
    const { html, head } = await render(<PageTitle title="Cart" description={'Tools & "more"'} />);
    expect(html).toBe('<title>Cart · Toolyard</title><meta name="description" content="Tools &amp; &quot;more&quot;"/><main></main>');
    // The words the server copies into the link previews' tags.
    expect(head).toEqual({ title: "Cart · Toolyard", description: 'Tools & "more"' });
  });

  it("gives the home page the site's title and every page the site's description unless it has its own", async () => {
    const { html } = await render(<PageTitle />);
    expect(html).toContain(`<title>${TEXT.meta.title}</title>`);
    expect(html).toContain(`content="${TEXT.meta.description}"`);
  });

  it("writes nothing on the server while the page's title waits for its data", async () => {
    const { html, head } = await render(<PageTitle title={null} />);
    expect(html).toBe("<main></main>");
    expect(head).toEqual({});
  });
});

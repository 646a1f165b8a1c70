/**
 * Issue 42's back-in-stock alerts in the real store: a visitor asks on a sold-out tool's page,
 * confirms from the mail (the tests' SMTP server), the owner restocks in the console, and the
 * alert arrives with the tool's link; a signed-in customer's one click; the page without JavaScript.
 * The spec's tool is its own, made sold out here and archived at the end.
 */
import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { APP_URL } from "../support/env";
import { expectNoSeriousViolations, newAccount, signedInPage, signInAsAdmin, uniqueEmail } from "../support/e2e-helpers";
import { fetchMail } from "../support/smtp";

const origin = { origin: APP_URL };
const inbox = () => {
  const url = process.env.E2E_INBOX_URL;
  if (!url) throw new Error("E2E_INBOX_URL is not set: the global setup starts the SMTP stand-in");
  return url;
};
const linkIn = (text: string, prefix: string) => {
  const found = text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!found) throw new Error(`no link starting with ${prefix} in:\n${text}`);
  return found;
};

/** A sold-out tool of the test's own, through the console's API; `archive` takes it out of the catalogue again. */
async function soldOutTool(browser: Browser): Promise<{ id: string; name: string; owner: APIRequestContext; archive: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: APP_URL });
  const owner = context.request;
  await signInAsAdmin(owner);
  const name = `Alert hand drill ${Date.now().toString(36)}`;
  const res = await owner.post("/api/admin/tools", {
    headers: origin,
    data: { name, image: "/images/tools/claw-hammer.svg", price: 30, availableQuantity: 0, minimumQuantity: 1, description: "Sold out, for the alert test.", category: "hand-tools" },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { _id: string })._id;
  return {
    id,
    name,
    owner,
    archive: async () => {
      await owner.patch(`/api/admin/tools/${id}`, { headers: origin, data: { active: false } });
      await context.close();
    },
  };
}

test("a visitor asks on a sold-out page, confirms from the mail; the owner restocks in the console and the alert arrives with the tool's link", async ({ page, browser }) => {
  test.slow(); // mail both ways and the console, on a shared machine
  const tool = await soldOutTool(browser);
  try {
    await page.goto(`/tools/${tool.id}`);
    await expect(page.getByRole("heading", { name: tool.name, level: 1 })).toBeVisible();
    await expect(page.getByTestId("stock-state")).toHaveText("Out of stock");
    const offer = page.getByRole("form", { name: "Email me when it is back" });
    await expect(offer.getByRole("button", { name: "Email me when it is back" })).toBeEnabled();
    await expectNoSeriousViolations(page);

    // The form's rule is the API's: a bad address is told at the field, nothing sent.
    await offer.getByLabel("Your e-mail address").fill("not-an-address");
    await offer.getByRole("button", { name: "Email me when it is back" }).click();
    await expect(offer.getByRole("alert")).toBeVisible();
    const email = uniqueEmail("alert-visitor");
    await offer.getByLabel("Your e-mail address").fill(email);
    await offer.getByRole("button", { name: "Email me when it is back" }).click();
    await expect(page.getByTestId("stock-alert-state")).toContainText(`we sent a link to ${email}`);

    const confirmation = await fetchMail(inbox(), email, `Confirm your alert for ${tool.name}`);
    // The link opens the tool's page, which asks before it confirms (a mail scanner's GET does nothing).
    await page.goto(linkIn(confirmation.text, `${APP_URL}/tools/${tool.id}?stockAlert=confirm&token=`));
    await expect(page.getByRole("heading", { name: "Confirm your back-in-stock alert", level: 2 })).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.getByRole("button", { name: "Yes, email me when it is back" }).click();
    await expect(page.getByTestId("stock-alert-result")).toHaveText(`Done: we will e-mail you once when ${tool.name} is back in stock.`);

    // A wrong link says so.
    await page.goto(`/tools/${tool.id}?stockAlert=confirm&token=not-a-token`);
    await page.getByRole("button", { name: "Yes, email me when it is back" }).click();
    await expect(page.getByTestId("stock-alert-error")).toContainText("This link is not valid");

    // The owner sees who waits and restocks in the console.
    const console = await browser.newPage({ baseURL: APP_URL });
    await signInAsAdmin(console.request);
    await console.goto(`/admin/tools/${tool.id}`);
    await expect(console.getByTestId("alerts-waiting")).toHaveText("1 waiting for it to be back");
    await console.getByLabel("Change (+ restock, − correction)").fill("5");
    await console.getByLabel("Why").fill("Delivery from the supplier");
    await console.getByRole("button", { name: "Record movement" }).click();
    await expect(console.getByTestId("stock-now")).toHaveText("Stock now: 5");
    await console.close();

    const alert = await fetchMail(inbox(), email, `${tool.name} is back in stock`);
    const toolLink = linkIn(alert.text, `${APP_URL}/tools/`);
    expect(toolLink).toBe(`${APP_URL}/tools/${tool.id}`);
    await page.goto(toolLink);
    await expect(page.getByTestId("stock-state")).not.toHaveText("Out of stock");
    await expect(page.getByTestId("stock-alert")).toHaveCount(0);
    // Its unsubscribe link says the alert is over.
    await page.goto(linkIn(alert.text, `${APP_URL}/tools/${tool.id}?stockAlert=unsubscribe&token=`));
    await expect(page.getByTestId("stock-alert-result")).toHaveText(`The alert about ${tool.name} was sent already: you will get no more e-mail about it.`);
  } finally {
    await tool.archive();
  }
});

test("signed in, one click subscribes the account's own address, and the button says so", async ({ page, browser }) => {
  const tool = await soldOutTool(browser);
  try {
    await signedInPage(page, newAccount("alert-member"));
    await page.goto(`/tools/${tool.id}`);
    await expect(page.getByRole("form", { name: "Email me when it is back" })).toHaveCount(0);
    await page.getByTestId("stock-alert").getByRole("button", { name: "Email me when it is back" }).click();
    await expect(page.getByTestId("stock-alert-state")).toHaveText("Subscribed: we will e-mail you when it is back");
    await page.reload();
    await expect(page.getByTestId("stock-alert-state")).toHaveText("Subscribed: we will e-mail you when it is back");
    await page.getByRole("button", { name: "Stop the alert" }).click();
    await expect(page.getByTestId("stock-alert").getByRole("button", { name: "Email me when it is back" })).toBeVisible();
  } finally {
    await tool.archive();
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the sold-out page shows the offer and says subscribing needs JavaScript", async ({ page, browser }) => {
    const tool = await soldOutTool(browser);
    try {
      await page.goto(`/tools/${tool.id}`);
      await expect(page.getByTestId("stock-alert")).toContainText("We will e-mail you once when it is back in stock.");
      await expect(page.getByRole("button", { name: "Email me when it is back" })).toBeDisabled();
      await expect(page.getByText("Subscribing needs JavaScript.", { exact: true })).toBeVisible();
    } finally {
      await tool.archive();
    }
  });
});

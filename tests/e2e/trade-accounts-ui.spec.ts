/**
 * Trade accounts' pages (issue 43): the owner creates an account and adds a member in the console;
 * an account's admin adds a member from the dashboard; an approver approves a buyer's order over
 * the buyer's limit from the dashboard; a member sees the trade price on the tool page, the
 * purchase page, the cart and checkout; a customer applies and the owner records a payment and an
 * exemption certificate in the console. Each account and tool is the spec's own.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { PRICE_TIER_TEXT } from "../../src/contract/texts/price-tiers";
import { ACCOUNT_PAGE_TEXT, ADMIN_TRADE_TEXT, TRADE_TEXT } from "../../src/contract/texts/trade";
import { APP_URL } from "../support/env";
import { expectNoSeriousViolations, newAccount, signedInPage, signInAsAdmin, signUpViaApi } from "../support/e2e-helpers";

const origin = { origin: APP_URL };
const text = ADMIN_TRADE_TEXT;

async function accountWith(owner: APIRequestContext, name: string, members: { email: string; role: string; orderLimit?: number }[]): Promise<string> {
  const account = await owner.post("/api/admin/accounts", { headers: origin, data: { name, terms: "net30", creditLimit: 5000 } });
  expect(account.status(), await account.text()).toBe(201);
  const id = ((await account.json()) as { _id: string })._id;
  for (const m of members) {
    const added = await owner.post(`/api/admin/accounts/${id}/members`, { headers: origin, data: m });
    expect(added.status(), await added.text()).toBe(201);
  }
  return id;
}

test("the owner creates a trade account in the console and adds a customer as its admin", async ({ page, browser }) => {
  test.slow(); // several pages and axe on a shared machine
  const customer = await browser.newContext({ baseURL: APP_URL });
  const member = await signUpViaApi(customer.request, newAccount("trade-console"));
  await customer.close();
  await signInAsAdmin(page.request);
  const name = `Console Landscaping ${Date.now()}`;

  await page.goto("/admin/accounts");
  await page.getByRole("button", { name: text.add }).click();
  const form = page.getByRole("form", { name: text.newTitle });
  await form.getByLabel(text.name).fill(name);
  await form.getByLabel(text.terms).selectOption("net30");
  await form.getByLabel(text.creditLimit).fill("-5");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByText("Must be 0 or more")).toBeVisible();
  await form.getByLabel(text.creditLimit).fill("2500");
  await form.getByLabel(text.discountPercent).fill("10");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(text.created)).toBeVisible();
  await page.getByRole("link", { name, exact: true }).click();

  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
  await expect(page.getByText(text.credit("$0.00", "$2,500.00", "$2,500.00"))).toBeVisible();
  const add = page.getByRole("form", { name: text.addMember });
  await add.getByLabel(text.email).fill(member.email);
  await add.getByLabel(text.role).selectOption("admin");
  await add.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("member-row").filter({ hasText: member.email })).toContainText(text.roles.admin);
  await expect(page.getByRole("link", { name: "Statement (PDF)" })).toHaveAttribute("href", /\/statement\.pdf$/);
  await expectNoSeriousViolations(page);
});

test("an account's admin adds a member from the dashboard", async ({ page, browser }) => {
  test.slow(); // several pages and axe on a shared machine
  const owner = await browser.newContext({ baseURL: APP_URL });
  await signInAsAdmin(owner.request);
  const other = await browser.newContext({ baseURL: APP_URL });
  const newcomer = await signUpViaApi(other.request, newAccount("trade-newcomer"));
  await other.close();
  const admin = await signedInPage(page, newAccount("trade-admin"));
  const name = `Dashboard Gardens ${Date.now()}`;
  await accountWith(owner.request, name, [{ email: admin.email, role: "admin" }]);

  await page.goto("/dashboard/account");
  await expect(page.getByText(name)).toBeVisible();
  await expect(page.getByText(ACCOUNT_PAGE_TEXT.yourRole(text.roles.admin))).toBeVisible();
  const add = page.getByRole("form", { name: text.addMember });
  await add.getByLabel(text.email).fill(`nobody-${Date.now()}@example.com`);
  await add.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("No customer has that e-mail address").first()).toBeVisible();
  await add.getByLabel(text.email).fill(newcomer.email);
  await add.getByLabel(text.role).selectOption("buyer");
  await add.getByLabel(text.orderLimit).fill("200");
  await add.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("member-row").filter({ hasText: newcomer.email })).toContainText("$200.00");
  await expectNoSeriousViolations(page);
  await owner.close();
});

test("an approver approves a buyer's order over the buyer's limit from the dashboard", async ({ page, browser }) => {
  test.slow(); // several pages and axe on a shared machine
  const owner = await browser.newContext({ baseURL: APP_URL });
  await signInAsAdmin(owner.request);
  const tool = await owner.request.post("/api/admin/tools", {
    headers: origin,
    data: { name: `Approval hedge trimmer ${Date.now()}`, image: "/images/tools/jigsaw.svg", price: 40, availableQuantity: 50, minimumQuantity: 1, description: "For crews.", category: "hand-tools" },
  });
  expect(tool.status(), await tool.text()).toBe(201);
  const toolId = ((await tool.json()) as { _id: string })._id;
  const buyerContext = await browser.newContext({ baseURL: APP_URL });
  const buyer = await signUpViaApi(buyerContext.request, newAccount("trade-buyer-ui"));
  const approver = await signedInPage(page, newAccount("trade-approver"));
  await accountWith(owner.request, `Approvals Ltd ${Date.now()}`, [
    { email: buyer.email, role: "buyer", orderLimit: 50 },
    { email: approver.email, role: "approver" },
  ]);
  const placed = await buyerContext.request.post("/api/order", { headers: origin, data: { toolId, quantity: 3, paymentMethod: "terms" } });
  expect(placed.status(), await placed.text()).toBe(201);
  const order = (await placed.json()) as { _id: string; number: number; status: string };
  expect(order.status).toBe("awaiting_approval");

  await page.goto("/dashboard/account");
  const row = page.getByTestId("approval-row").filter({ hasText: `#${order.number}` });
  await expect(row).toBeVisible();
  await expectNoSeriousViolations(page);
  await row.getByRole("button", { name: ACCOUNT_PAGE_TEXT.approveOrder(order.number) }).click();
  await expect(page.getByText(ACCOUNT_PAGE_TEXT.approved(order.number))).toBeVisible();
  await expect(row).toHaveCount(0);
  const after = (await (await buyerContext.request.get(`/api/order/${order._id}`)).json()) as { status: string };
  expect(after.status).toBe("pending");
  await buyerContext.close();
  await owner.close();
});

test("a member sees the account's trade price on the tool page, the purchase page, the cart and checkout", async ({ page, browser }) => {
  test.slow(); // several pages on a shared machine
  const owner = await browser.newContext({ baseURL: APP_URL });
  await signInAsAdmin(owner.request);
  const tool = await owner.request.post("/api/admin/tools", {
    headers: origin,
    data: { name: `Trade price loppers ${Date.now()}`, image: "/images/tools/jigsaw.svg", price: 40, availableQuantity: 50, minimumQuantity: 1, description: "For crews.", category: "hand-tools" },
  });
  expect(tool.status(), await tool.text()).toBe(201);
  const toolId = ((await tool.json()) as { _id: string })._id;
  const buyer = await signedInPage(page, newAccount("trade-price"));
  const account = await owner.request.post("/api/admin/accounts", { headers: origin, data: { name: `Trade Price Ltd ${Date.now()}`, discountPercent: 12.5 } });
  expect(account.status(), await account.text()).toBe(201);
  const added = await owner.request.post(`/api/admin/accounts/${((await account.json()) as { _id: string })._id}/members`, { headers: origin, data: { email: buyer.email, role: "buyer" } });
  expect(added.status(), await added.text()).toBe(201);
  await owner.close();

  // The tool and purchase pages read the discount from the cart the navigation bar fetches
  // anyway: no GET /api/account, one GET /api/cart per page.
  const asked = (p: Page) => {
    const paths: string[] = [];
    p.on("request", (r) => paths.push(new URL(r.url()).pathname));
    return paths;
  };
  const paths = asked(page);
  // $40 less 12.5 % = $35.00.
  await page.goto(`/tools/${toolId}`);
  await expect(page.getByTestId("tool-price").first()).toHaveText("$40.00"); // the related tools have prices too
  await expect(page.getByTestId("trade-price")).toHaveText(`${PRICE_TIER_TEXT.tradePrice}: $35.00`);
  expect(paths.filter((p) => p === "/api/cart")).toHaveLength(1);
  await page.goto(`/purchase/${toolId}`);
  await expect(page.getByTestId("order-unit-price")).toHaveText("$35.00");
  await expect(page.getByTestId("order-total")).toHaveText("$35.00");
  expect(paths.filter((p) => p === "/api/account")).toEqual([]);
  // A customer in no account: list prices, and no account request either.
  const outsiderContext = await browser.newContext({ baseURL: APP_URL });
  const outsider = await outsiderContext.newPage();
  await signedInPage(outsider, newAccount("no-trade"));
  const outsiderPaths = asked(outsider);
  await outsider.goto(`/tools/${toolId}`);
  await expect(outsider.getByTestId("tool-price").first()).toHaveText("$40.00");
  await expect.poll(() => outsiderPaths.includes("/api/cart")).toBe(true);
  await expect(outsider.getByTestId("trade-price")).toHaveCount(0);
  expect(outsiderPaths.filter((p) => p === "/api/account")).toEqual([]);
  await outsiderContext.close();

  const put = await page.request.put(`/api/cart/lines/${toolId}`, { headers: origin, data: { quantity: 2 } });
  expect(put.status(), await put.text()).toBe(200);
  await page.goto("/cart");
  const line = page.getByTestId("cart-line").filter({ hasText: "Trade price loppers" });
  await expect(line.getByTestId("line-tier")).toHaveText(PRICE_TIER_TEXT.tradePrice);
  await expect(line.getByTestId("line-total")).toHaveText("$70.00");
  await page.goto("/checkout");
  await expect(page.getByTestId("checkout-lines")).toContainText(PRICE_TIER_TEXT.tradePrice);
  await expect(page.getByTestId("checkout-lines")).toContainText("$70.00");
});

test("a customer applies from the dashboard; the owner sees the application, records a payment against an invoice and adds an exemption certificate in the console", async ({ page, browser }) => {
  test.slow(); // several pages and forms on a shared machine
  const applicant = await signedInPage(page, newAccount("trade-applicant"));
  const company = `Applicant Gardens ${Date.now()}`;
  await page.goto("/dashboard/account");
  const apply = page.getByRole("form", { name: ACCOUNT_PAGE_TEXT.applyTitle });
  await apply.getByRole("button", { name: "Save" }).click();
  await expect(apply.getByText(TRADE_TEXT.nameRequired)).toBeVisible();
  await apply.getByLabel(ACCOUNT_PAGE_TEXT.applyName).fill(company);
  await apply.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(ACCOUNT_PAGE_TEXT.applied).first()).toBeVisible();

  const owner = await browser.newContext({ baseURL: APP_URL });
  await signInAsAdmin(owner.request);
  const console = await owner.newPage();
  await console.goto("/admin/accounts");
  await expect(console.getByRole("table", { name: text.applications }).getByRole("row").filter({ hasText: company })).toContainText(applicant.email);

  // An account on terms with the applicant as its buyer, and one invoice of theirs.
  const id = await accountWith(owner.request, company, [{ email: applicant.email, role: "buyer" }]);
  const tool = await owner.request.post("/api/admin/tools", {
    headers: origin,
    data: { name: `Ledger rake ${Date.now()}`, image: "/images/tools/jigsaw.svg", price: 40, availableQuantity: 50, minimumQuantity: 1, description: "For the ledger.", category: "hand-tools" },
  });
  expect(tool.status(), await tool.text()).toBe(201);
  const placed = await page.request.post("/api/order", { headers: origin, data: { toolId: ((await tool.json()) as { _id: string })._id, quantity: 1, paymentMethod: "terms" } });
  expect(placed.status(), await placed.text()).toBe(201);
  const invoice = ((await placed.json()) as { invoiceNumber: string }).invoiceNumber;

  await console.goto(`/admin/accounts/${id}`);
  const payment = console.getByRole("form", { name: text.payment });
  await payment.getByLabel(text.amount).fill("25");
  await payment.getByLabel(text.reference).fill("CHK-501");
  await payment.getByLabel(text.invoiceNumbers).fill(invoice);
  await payment.getByRole("button", { name: "Save" }).click();
  await expect(console.getByText(text.paymentRecorded).first()).toBeVisible();
  await expect(console.getByText("CHK-501").first()).toBeVisible();

  const certificate = `NY-EX-${Date.now()}`;
  const exemption = console.getByRole("form", { name: text.addExemption });
  await exemption.getByLabel("Country").selectOption("US");
  await exemption.getByLabel("Region").selectOption("NY");
  await exemption.getByLabel(text.certificate).fill(certificate);
  await exemption.getByLabel(text.expiresOn).fill("2099-12-31");
  await exemption.getByRole("button", { name: "Save" }).click();
  await expect(console.getByText(text.exemptionAdded).first()).toBeVisible();
  await expect(console.getByRole("table", { name: text.exemptions })).toContainText(certificate);
  await expectNoSeriousViolations(console);
  const statement = (await (await owner.request.get(`/api/admin/accounts/${id}/statement`)).json()) as { lines: { type: string; number: string; amount: number }[] };
  expect(statement.lines.filter((l) => l.type === "payment")).toEqual([expect.objectContaining({ number: "CHK-501", amount: -25 })]);
  await owner.close();
});

import { expect, test, type Page } from "@playwright/test";
import { buyingTool, getTool, listTools, loginThroughForm, newAccount, signedInPage, signUpViaApi } from "../support/e2e-helpers";

/** Buying, the dashboard (orders, reviews, profile) and the purchase page (spec §2, §4, §5). */

const usd = (dollars: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(dollars);

const toast = (page: Page) => page.locator(".Toastify__toast-container--top-right .Toastify__toast");

test.describe("buying a tool", () => {
  test("Book Now → login → purchase → My Orders → cancel gives the stock back", async ({ page, request }) => {
    test.slow(); // many steps, each a real round trip
    // A tool only this test orders (other tests order the catalogue's first tools in parallel,
    // which moved the stock asserted here); its stock as the API reports it.
    const listed = await buyingTool(request);
    const original = listed.availableQuantity;
    const minimum = listed.minimumQuantity;
    expect(original).toBeGreaterThanOrEqual(minimum + 2);
    const account = await signUpViaApi(request);

    // Signed out, 'Book Now' on the tool's card (in the catalogue, searched by its name) leads to the login page.
    await page.goto(`/tools?q=${encodeURIComponent(listed.name)}`);
    const card = page.getByTestId("tool-card").filter({ has: page.getByRole("heading", { name: listed.name, exact: true }) });
    await expect(card).toHaveCount(1);
    await card.getByRole("button", { name: "Book Now" }).click();
    await expect(page).toHaveURL(/\/login$/);

    // After login, back on that tool's purchase page.
    await loginThroughForm(page, account);
    await expect(page).toHaveURL(new RegExp(`/purchase/${listed._id}$`));

    const image = page.getByRole("main").getByRole("img", { name: listed.name });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(page.getByRole("heading", { name: listed.name, level: 1 })).toBeVisible();
    await expect(page.getByTestId("purchase-price")).toHaveText(usd(listed.price));
    await expect(page.getByTestId("purchase-price")).toHaveText(/^\$/);
    await expect(page.getByTestId("available-quantity")).toHaveText(String(original));
    await expect(page.getByTestId("minimum-quantity")).toHaveText(String(minimum));
    await expect(page.getByRole("main").getByText(listed.description, { exact: true })).toBeVisible();
    const quantity = page.getByTestId("order-quantity");
    await expect(quantity).toHaveText(String(minimum));

    // 'Add' refuses an empty amount and 0.
    const amount = page.getByLabel("Amount to add");
    const add = page.getByRole("button", { name: "Add", exact: true });
    const invalid = page.getByText("Please enter valid data", { exact: true });
    await add.click();
    await expect(invalid).toBeVisible();
    await expect(quantity).toHaveText(String(minimum));
    await amount.fill("0");
    await add.click();
    await expect(invalid).toBeVisible();
    await expect(quantity).toHaveText(String(minimum));

    // 2 raises the quantity by 2 and clears the message.
    await amount.fill("2");
    await add.click();
    const ordered = minimum + 2;
    await expect(quantity).toHaveText(String(ordered));
    await expect(invalid).toHaveCount(0);
    await expect(amount).toHaveValue("");

    // More than the stock: the quantity stays.
    await amount.fill("99999");
    await add.click();
    await expect(page.getByText(`Only ${original} in stock: the quantity cannot go higher.`, { exact: true })).toBeVisible();
    await expect(quantity).toHaveText(String(ordered));

    // 'Ordered' places the order and opens My Orders.
    await page.getByRole("button", { name: "Ordered", exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const row = page.getByTestId("order-row").filter({ hasText: listed.name });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole("cell").nth(1)).toHaveText(listed.name);
    await expect(row.getByRole("cell").nth(2)).toHaveText(String(ordered));
    // Each order shows its _id (spec §2) next to its number.
    const [placed] = (await (await page.request.get("/api/order")).json()) as Array<{ _id: string; number: number }>;
    expect(placed).toBeDefined();
    await expect(row.getByTestId("order-id")).toHaveText(placed?._id ?? "");
    await expect(row.getByRole("cell").first()).toContainText(`#${placed?.number}`);
    await expect.poll(async () => (await getTool(request, listed._id)).availableQuantity).toBe(original - ordered);

    // Back on the purchase page (client-side, from the cache) the stock shown is the new one.
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/purchase/${listed._id}$`));
    await expect(page.getByTestId("available-quantity")).toHaveText(String(original - ordered));
    await page.goForward();
    await expect(page).toHaveURL(/\/dashboard$/);

    // 'Are You Sure ?' is asked in the page (an accessible dialog, not the browser's confirm());
    // No keeps the order (also after a reload).
    let browserDialogs = 0;
    page.on("dialog", (dialog) => {
      browserDialogs += 1;
      void dialog.dismiss();
    });
    const dialog = page.getByRole("dialog", { name: "Are You Sure ?" });
    await row.getByRole("button", { name: /^Delete/ }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "No" })).toBeFocused();
    await dialog.getByRole("button", { name: "No" }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveCount(1);
    // Escape is a No too.
    await row.getByRole("button", { name: /^Delete/ }).click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(row).toHaveCount(1);
    expect((await getTool(request, listed._id)).availableQuantity).toBe(original - ordered);

    // Yes cancels the order: the row goes and the stock is back.
    await row.getByRole("button", { name: /^Delete/ }).click();
    await dialog.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect(row).toHaveCount(0);
    await expect(page.getByText("You have no open orders.", { exact: true })).toBeVisible();
    await expect.poll(async () => (await getTool(request, listed._id)).availableQuantity).toBe(original);
    await page.reload();
    await expect(page.getByText("You have no open orders.", { exact: true })).toBeVisible();
    // The cancelled order is kept, folded away, without its _id.
    await expect(page.getByTestId("cancelled-orders")).toContainText("Cancelled orders (1)");
    await expect(page.getByTestId("order-id")).toHaveCount(0);
    expect(browserDialogs).toBe(0);
  });

  test("Add a Review: prefilled name, validation, toast, reset, shown as text on the home page", async ({ page }) => {
    const account = await signedInPage(page, newAccount("r"));
    await page.goto("/dashboard/review");

    const name = page.getByLabel("Name");
    const rating = page.getByLabel("Rating out of 5");
    const description = page.getByLabel("Description");
    const submit = page.getByRole("button", { name: "Add Review" });
    await expect(name).toHaveValue(account.name);
    await expect(rating).toBeVisible();
    await expect(rating).toHaveAttribute("type", "number");

    // An empty description is refused in the form.
    await submit.click();
    await expect(page.getByText("Description is required", { exact: true })).toBeVisible();
    await expect(toast(page)).toHaveCount(0);

    // A valid review: the toast, top-right, and a reset form.
    const text = `Great hammer, review ${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    await rating.fill("4");
    await description.fill(text);
    await submit.click();
    await expect(toast(page).filter({ hasText: "Review Added" })).toBeVisible();
    await expect(description).toHaveValue("");
    await expect(name).toHaveValue(account.name);
    await expect(rating).toHaveValue("5");
    await expect(page.getByText("Description is required", { exact: true })).toHaveCount(0);

    // The spec's toast settings: it closes itself after 5000 ms (the progress bar runs that long)...
    const progress = toast(page).locator(".Toastify__progress-bar");
    await expect.poll(() => progress.evaluate((el) => getComputedStyle(el).animationDuration)).toBe("5s");
    // ...and it can be dragged away, which closes it (so the next one is known to be new).
    // Once it has finished sliding in, so the pointer lands on it.
    await expect(toast(page)).not.toHaveClass(/bounce-enter/);
    const box = await toast(page).boundingBox();
    if (!box) throw new Error("the toast has no box");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    // Leftwards, onto the page, and further than react-toastify's 80 % of the toast's width: a
    // toast that is not draggable stays (the release is not a click on it).
    await page.mouse.move(box.x + box.width / 2 - box.width * 0.5, box.y + box.height / 2, { steps: 8 });
    await page.mouse.move(box.x + box.width / 2 - box.width * 1.2, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    // Well before its 5 s are up, so it was the drag that closed it.
    await expect(toast(page)).toHaveCount(0, { timeout: 1500 });

    // Markup in a review is shown as literal text.
    const markup = `<b>bold</b> and <img src=x onerror="window.__pwned=1"> ${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    await description.fill(markup);
    await submit.click();
    await expect(toast(page).filter({ hasText: "Review Added" })).toBeVisible();
    await expect(description).toHaveValue("");

    await page.goto("/");
    const reviews = page.getByRole("region", { name: "Reviews Here" });
    const mine = reviews.getByTestId("review-card").filter({ hasText: text });
    await expect(mine).toHaveCount(1);
    await expect(mine.getByRole("heading", { name: account.name })).toBeVisible();
    await expect(mine.getByTestId("review-rating")).toHaveText("Rated 4 out of 5");

    const literal = reviews.getByTestId("review-card").filter({ hasText: markup });
    await expect(literal).toHaveCount(1);
    await expect(literal.getByText(markup, { exact: true })).toBeVisible();
    await expect(literal.locator("b")).toHaveCount(0);
    await expect(literal.locator("img")).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  test("My Profile: address and phone survive a reload and show as the delivery address", async ({ page, request }) => {
    const account = await signedInPage(page, newAccount("p"));
    await page.goto("/dashboard/profile");
    await expect(page.getByTestId("profile-name")).toHaveText(account.name);
    await expect(page.getByTestId("profile-email")).toHaveText(account.email);

    const address = `12 Forge Lane, Flat ${Math.floor(Math.random() * 1000)}, Brooklyn`;
    const phone = "+1 (555) 010-2024";
    await page.getByLabel("Address").fill(address);
    await page.getByLabel("Phone").fill(phone);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page).filter({ hasText: "Profile saved" })).toBeVisible();

    await page.reload();
    await expect(page.getByTestId("profile-name")).toHaveText(account.name);
    await expect(page.getByLabel("Address")).toHaveValue(address);
    await expect(page.getByLabel("Phone")).toHaveValue(phone);

    const [tool] = await listTools(request, 1);
    expect(tool).toBeDefined();
    if (!tool) return;
    await page.goto(`/purchase/${tool._id}`);
    await expect(page.getByRole("heading", { name: tool.name, level: 1 })).toBeVisible();
    const delivery = page.getByRole("main").getByText("Delivery to", { exact: false });
    await expect(delivery).toBeVisible();
    await expect(page.getByTestId("delivery-address")).toContainText(address);
    await expect(page.getByTestId("delivery-address")).toContainText(phone);
  });

  test("an unknown tool id shows a clear message", async ({ page }) => {
    await signedInPage(page);
    await page.goto("/purchase/does-not-exist");
    await expect(page.getByText("We could not find this tool. It may have been removed from the catalogue.", { exact: true })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Browse all tools" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Ordered" })).toHaveCount(0);
  });
});

test("My Orders on a phone: each order is readable and its Delete button reachable without scrolling sideways", async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signedInPage(page, newAccount("m"));
  const [tool] = await listTools(request, 1);
  if (!tool) throw new Error("the catalogue is empty");
  const placed = await page.request.post("/api/order", { data: { toolId: tool._id, quantity: tool.minimumQuantity } });
  expect(placed.status()).toBe(201);

  await page.goto("/dashboard");
  const row = page.getByTestId("order-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByText(tool.name, { exact: true })).toBeInViewport();
  // Reachable by scrolling down (the dashboard's nav and a taxed total's lines put it below an
  // 800 px screen), never sideways: the page is no wider than the phone.
  const remove = row.getByRole("button", { name: /^Delete/ });
  await page.evaluate(() => window.scrollBy(0, 400));
  await expect(remove).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

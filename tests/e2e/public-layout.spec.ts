import { expect, test, type Page } from "@playwright/test";

/** The navigation bar and the footer, as a signed-out visitor sees them (spec §1, §2, §9). */

const NAV_LINKS = [
  { name: "Home", path: "/", heading: "Welcome Best Tools" },
  { name: "Purchase", path: "/tools", heading: "All Tools" },
  { name: "Blogs", path: "/blogs", heading: "Questions & Answers" },
  { name: "About", path: "/about", heading: "About Us" },
  { name: "Login", path: "/login", heading: "Login" },
] as const;

const pathOf = (page: Page) => new URL(page.url()).pathname;

test.describe("navigation bar on a desktop screen", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("shows the logo and the public links, and no Dashboard link when signed out", async ({ page }) => {
    await page.goto("/about");
    const header = page.getByRole("banner");
    const logoLink = header.getByRole("link", { name: "Toolyard" });
    await expect(logoLink).toBeVisible();
    const logo = logoLink.locator("img");
    await expect(logo).toBeVisible();
    await expect(logo).toHaveAttribute("src", /logo/);
    // The image really loaded (a broken src would have no natural size).
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    const menu = page.getByTestId("desktop-menu");
    await expect(menu).toBeVisible();
    for (const { name, path } of NAV_LINKS) {
      const link = menu.getByRole("link", { name, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute("href", path);
    }
    await expect(header.getByRole("link", { name: "Login", exact: true })).toBeVisible();
    await expect(header.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
    await expect(header.getByRole("button", { name: "Sign Out" })).toHaveCount(0);
    // The hamburger is for small screens only.
    await expect(header.getByRole("button", { name: "Open menu" })).toBeHidden();
  });

  test("each link opens its page, and the logo leads home", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Welcome Best Tools" })).toBeVisible();
    const menu = page.getByTestId("desktop-menu");
    for (const { name, path, heading } of [...NAV_LINKS].reverse()) {
      await menu.getByRole("link", { name, exact: true }).click();
      await expect.poll(() => pathOf(page)).toBe(path);
      await expect(page.getByRole("main").getByRole("heading", { name: heading, exact: true })).toBeVisible();
      // The current page is marked in the menu.
      await expect(menu.getByRole("link", { name, exact: true })).toHaveClass(/menu-active/);
    }
    await page.goto("/blogs");
    await page.getByRole("banner").getByRole("link", { name: "Toolyard" }).click();
    await expect.poll(() => pathOf(page)).toBe("/");
    await expect(page.getByRole("heading", { name: "Welcome Best Tools" })).toBeVisible();
  });
});

test.describe("navigation bar on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("hides the links until 'Open menu' is clicked", async ({ page }) => {
    await page.goto("/");
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Toolyard" })).toBeVisible();
    await expect(page.getByTestId("desktop-menu")).toBeHidden();
    for (const { name } of NAV_LINKS) {
      await expect(header.getByRole("link", { name, exact: true })).toBeHidden();
    }
    await expect(page.getByTestId("mobile-menu")).toBeHidden();

    const toggle = header.getByRole("button", { name: "Open menu" });
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");

    const mobileMenu = page.getByTestId("mobile-menu");
    await expect(mobileMenu).toBeVisible();
    for (const { name, path } of NAV_LINKS) {
      const link = mobileMenu.getByRole("link", { name, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute("href", path);
    }
    await expect(mobileMenu.getByRole("link", { name: "Dashboard" })).toHaveCount(0);

    // Clicking the button again closes the menu.
    await toggle.click();
    await expect(mobileMenu).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  test("a link in the mobile menu navigates and closes the menu", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Welcome Best Tools" })).toBeVisible();
    const toggle = page.getByRole("button", { name: "Open menu" });
    const mobileMenu = page.getByTestId("mobile-menu");

    await toggle.click();
    await mobileMenu.getByRole("link", { name: "Blogs", exact: true }).click();
    await expect.poll(() => pathOf(page)).toBe("/blogs");
    await expect(page.getByRole("heading", { name: "Questions & Answers" })).toBeVisible();
    await expect(mobileMenu).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");

    await toggle.click();
    await mobileMenu.getByRole("link", { name: "Purchase", exact: true }).click();
    await expect.poll(() => pathOf(page)).toBe("/tools");
    await expect(page.getByRole("heading", { name: "All Tools" })).toBeVisible();
    await expect(mobileMenu).toBeHidden();

    await toggle.click();
    await mobileMenu.getByRole("link", { name: "Login", exact: true }).click();
    await expect.poll(() => pathOf(page)).toBe("/login");
    await expect(page.getByRole("heading", { name: "Login", exact: true })).toBeVisible();
    await expect(mobileMenu).toBeHidden();
  });
});

test.describe("footer", () => {
  test("has the Services, Company, Legal and Social columns and this year's copyright", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await expect(footer).toBeVisible();
    for (const column of ["Services", "Company", "Legal", "Social"]) {
      const nav = footer.getByRole("navigation", { name: column });
      await expect(nav).toBeVisible();
      await expect(nav.getByRole("heading", { name: column })).toBeVisible();
      expect(await nav.getByRole("link").count(), `links in the ${column} column`).toBeGreaterThan(0);
    }
    const year = String(new Date().getFullYear());
    const copyright = page.getByTestId("copyright");
    await expect(copyright).toBeVisible();
    await expect(copyright).toContainText(year);
    await expect(copyright).toContainText(/copyright|©/i);
    await expect(copyright).toContainText("Toolyard");
  });

  test("its links lead to the store's pages", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await footer.getByRole("navigation", { name: "Services" }).getByRole("link", { name: "Chainsaws" }).click();
    await expect.poll(() => page.url()).toMatch(/\/tools\?category=chainsaws$/);
    await expect(page.getByRole("heading", { name: "Chainsaws", level: 1 })).toBeVisible();

    await footer.getByRole("navigation", { name: "Company" }).getByRole("link", { name: "About us" }).click();
    await expect.poll(() => pathOf(page)).toBe("/about");
    await expect(page.getByRole("heading", { name: "About Us" })).toBeVisible();

    // Each legal link opens its own section of /legal, scrolled into view.
    for (const [name, id] of [["Terms of use", "terms"], ["Privacy policy", "privacy"], ["Cookie policy", "cookies"]] as const) {
      await footer.getByRole("navigation", { name: "Legal" }).getByRole("link", { name }).click();
      await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).hash).toBe(`/legal#${id}`);
      const section = page.getByRole("region", { name });
      await expect(section.getByRole("heading", { name, level: 2 })).toBeInViewport();
    }
  });
});

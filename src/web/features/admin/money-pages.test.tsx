/**
 * The console's money forms against a stand-in API: the shared schema's messages at the fields
 * before anything is sent, what is sent once they pass, a refusal's messages put back at the
 * fields with the input kept, and the CSV import's named row.
 */
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminTool } from "../../../contract/admin-schemas";
import { MONEY_TEXT } from "../../../contract/texts/money";
import { VALIDATION_TEXT } from "../../../contract/texts/validation";
import { makeQueryClient } from "../../app/providers";
import { OrderPage } from "./orders";
import PromotionsPage from "./promotions";
import ShippingPage from "./shipping";
import StoreSettingsPage from "./store-settings";
import TaxRatesPage from "./tax-rates";
import ToolsPage from "./tools";
import UsersPage from "./users";

interface Call {
  method: string;
  url: string;
  contentType: string | null;
  body: unknown;
}

/** A stand-in API: `answers` by "METHOD /path"; every call is kept in `calls`. */
function standIn(answers: Record<string, (call: Call) => Response>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    const headers = new Headers(init?.headers);
    const contentType = headers.get("content-type");
    const raw = typeof init?.body === "string" ? init.body : undefined;
    const call: Call = { method, url, contentType, body: raw !== undefined && contentType === "application/json" ? (JSON.parse(raw) as unknown) : raw };
    calls.push(call);
    const answer = answers[`${method} ${url.split("?")[0]}`];
    return answer ? answer(call) : json({ error: "NOT_FOUND", message: "no stand-in" }, 404);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls, writes: () => calls.filter((c) => c.method !== "GET") };
}
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function show(ui: ReactNode, at = "/") {
  return render(
    <QueryClientProvider client={makeQueryClient()}>
      <MemoryRouter initialEntries={[at]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}
const alerts = (scope: HTMLElement) => within(scope).queryAllByRole("alert").map((a) => a.textContent);

beforeEach(() => vi.unstubAllGlobals());
afterEach(cleanup);

describe("the tax rates page", () => {
  it("shows the schema's messages at the fields and sends nothing, then sends the rate once they pass", async () => {
    const api = standIn({ "GET /api/admin/tax-rates": () => json([]), "POST /api/admin/tax-rates": (c) => json({ _id: "r1", ...(c.body as object) }, 201) });
    const user = userEvent.setup();
    show(<TaxRatesPage />);
    expect(await screen.findByText(/No tax rate yet/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add a tax rate" }));
    const form = screen.getByRole("form", { name: "Add a tax rate" });
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(alerts(form)).toEqual([VALIDATION_TEXT.nameRequired, MONEY_TEXT.rateRange]));
    expect(within(form).getByLabelText(/Name/)).toHaveAccessibleDescription(VALIDATION_TEXT.nameRequired);
    // The place is checked once the fields themselves pass (the schema's refinement runs last).
    await user.type(within(form).getByLabelText(/Name/), "California sales tax");
    await user.type(within(form).getByLabelText(/Rate in basis points/), "725");
    expect(within(form).getByText("That is 7.25 %.")).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(alerts(form)).toEqual([MONEY_TEXT.countryUnknown]));
    expect(api.writes()).toEqual([]);

    await user.selectOptions(within(form).getByLabelText("Country"), "US");
    await user.selectOptions(within(form).getByLabelText("State / region"), "CA");
    await user.click(within(form).getByLabelText(/Delivery charges are taxed/));
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]?.body).toEqual({ country: "US", region: "CA", postalPrefix: "", name: "California sales tax", rateBasisPoints: 725, taxShipping: true });
    await waitFor(() => expect(screen.queryByRole("form", { name: "Add a tax rate" })).not.toBeInTheDocument());
  });

  it("puts a refusal's field messages at the fields and keeps what was typed", async () => {
    standIn({
      "GET /api/admin/tax-rates": () => json([]),
      "POST /api/admin/tax-rates": () =>
        json({ error: "VALIDATION", message: "A tax rate for this place exists already.", details: [{ path: "body.postalPrefix", message: "A tax rate for this place exists already." }] }, 400),
    });
    const user = userEvent.setup();
    show(<TaxRatesPage />);
    await user.click(await screen.findByRole("button", { name: "Add a tax rate" }));
    const form = screen.getByRole("form", { name: "Add a tax rate" });
    await user.selectOptions(within(form).getByLabelText("Country"), "DE");
    await user.type(within(form).getByLabelText(/Postal code prefix/), "10");
    await user.type(within(form).getByLabelText(/Name/), "Berlin");
    await user.type(within(form).getByLabelText(/Rate in basis points/), "1900");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    const postal = within(form).getByLabelText(/Postal code prefix/).closest(".form-control");
    await waitFor(() => expect(within(postal as HTMLElement).getByRole("alert")).toHaveTextContent("exists already"));
    expect(within(form).getByLabelText(/Name/)).toHaveValue("Berlin");
    expect(within(form).getByLabelText(/Rate in basis points/)).toHaveValue(1900);
  });

  it("sends a chosen CSV file as text/csv and shows the refusal that names the bad row", async () => {
    const api = standIn({
      "GET /api/admin/tax-rates": () => json([{ _id: "r1", country: "US", region: "NY", postalPrefix: "", name: "New York", rateBasisPoints: 400, taxShipping: true }]),
      "POST /api/admin/tax-rates.csv": () =>
        json(
          {
            error: "VALIDATION",
            message: "Row 3, rateBasisPoints: A rate is between 0 and 100 %. Nothing was imported.",
            details: [
              { path: "row.3.rateBasisPoints", message: "Row 3, rateBasisPoints: A rate is between 0 and 100 %" },
              { path: "row.4.country", message: "Row 4, country: Choose a country the store delivers to" },
            ],
          },
          400,
        ),
    });
    const user = userEvent.setup();
    show(<TaxRatesPage />);
    const row = await screen.findByTestId("tax-rate-row");
    expect(row).toHaveTextContent("New York");
    expect(row).toHaveTextContent("4 %");
    expect(screen.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", "/api/admin/tax-rates.csv");
    const csv = "country,region,postalPrefix,name,rateBasisPoints,taxShipping\nUS,NY,,New York,400,true\nUS,CA,,California,-5,false\nXX,,,Nowhere,100,false\n";
    await user.upload(screen.getByLabelText("Import a CSV file"), new File([csv], "rates.csv", { type: "text/csv" }));
    const problem = await screen.findByTestId("csv-problem");
    expect(problem).toHaveTextContent("Row 3, rateBasisPoints");
    expect(within(problem).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Row 4, country: Choose a country the store delivers to"]);
    const sent = api.writes();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: "POST", url: "/api/admin/tax-rates.csv", contentType: "text/csv", body: csv });
  });
});

describe("the promotions page", () => {
  it("refuses a percent over 100 and an end before the start at their fields, then sends ISO dates and null limits", async () => {
    const api = standIn({ "GET /api/admin/promotions": () => json([]), "POST /api/admin/promotions": (c) => json({ _id: "p1", redemptions: 0, ...(c.body as object) }, 201) });
    const user = userEvent.setup();
    show(<PromotionsPage />);
    await user.click(await screen.findByRole("button", { name: "Add a promotion" }));
    const form = screen.getByRole("form", { name: "Add a promotion" });
    await user.type(within(form).getByLabelText("Code"), "spring10");
    await user.type(within(form).getByLabelText(/^Value/), "150");
    await user.type(within(form).getByLabelText(/^Starts/), "2026-03-10T09:00");
    await user.type(within(form).getByLabelText(/^Ends/), "2026-03-01T09:00");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(alerts(form)).toContain(MONEY_TEXT.percentRange));
    expect(alerts(form)).toContain(MONEY_TEXT.datesOrder);
    expect(api.writes()).toEqual([]);

    await user.clear(within(form).getByLabelText(/^Value/));
    await user.type(within(form).getByLabelText(/^Value/), "10");
    await user.clear(within(form).getByLabelText(/^Ends/));
    await user.type(within(form).getByLabelText(/^Ends/), "2026-04-01T09:00");
    await user.type(within(form).getByLabelText(/Uses per customer/), "1");
    await user.click(within(form).getByLabelText("Power Tools"));
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]?.body).toEqual({
      code: "SPRING10",
      kind: "percent",
      value: 10,
      minSubtotal: 0,
      startsAt: new Date("2026-03-10T09:00").toISOString(),
      endsAt: new Date("2026-04-01T09:00").toISOString(),
      usageLimit: null,
      perCustomerLimit: 1,
      categories: ["power-tools"],
      active: true,
    });
  });

  it("lists a code with its discount, limits and redemptions", async () => {
    standIn({
      "GET /api/admin/promotions": () =>
        json([{ _id: "p1", code: "TRADE5", kind: "amount", value: 5, minSubtotal: 50, startsAt: null, endsAt: null, usageLimit: 100, perCustomerLimit: null, categories: [], active: true, redemptions: 7 }]),
    });
    show(<PromotionsPage />);
    const row = await screen.findByTestId("promotion-row");
    for (const text of ["TRADE5", "$5.00 off", "$50.00", "100 in all", "Always", "7 of 100"]) expect(row).toHaveTextContent(text);
  });
});

describe("the shipping page", () => {
  it("says pickup is built in, refuses bands out of order, and sends zones with their destinations and bands", async () => {
    const api = standIn({ "GET /api/admin/shipping": () => json([]), "POST /api/admin/shipping": (c) => json({ _id: "m1", ...(c.body as object) }, 201) });
    const user = userEvent.setup();
    show(<ShippingPage />);
    expect(await screen.findByText(/Pickup at the store is built in/)).toBeInTheDocument();
    expect(await screen.findByText(/customers can only pick up/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add a delivery method" }));
    const form = screen.getByRole("form", { name: "Add a delivery method" });
    await user.type(within(form).getByLabelText("Name"), "Courier");
    await user.type(within(form).getByLabelText(/Free delivery from/), "250");
    await user.type(within(form).getByLabelText("Zone name"), "West coast");
    const place = within(form).getByRole("group", { name: "Zone 1, Destination 1" });
    await user.selectOptions(within(place).getByLabelText("Country"), "US");
    await user.selectOptions(within(place).getByLabelText("State / region"), "OR");
    await user.click(within(form).getByRole("button", { name: "Add a band" }));
    const second = within(form).getByRole("group", { name: "Zone 1, Band 2" });
    await user.clear(within(second).getByLabelText("Up to (grams)"));
    await user.type(within(second).getByLabelText("Up to (grams)"), "1000");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(alerts(form)).toContain(MONEY_TEXT.bandsOrder));
    expect(api.writes()).toEqual([]);

    await user.clear(within(second).getByLabelText("Up to (grams)"));
    await user.type(within(second).getByLabelText("Up to (grams)"), "20000");
    await user.clear(within(second).getByLabelText("Price (dollars)"));
    await user.type(within(second).getByLabelText("Price (dollars)"), "24.5");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]?.body).toEqual({
      name: "Courier",
      freeOver: 250,
      active: true,
      zones: [{ name: "West coast", destinations: [{ country: "US", region: "OR" }], bands: [{ maxGrams: 5000, price: 0 }, { maxGrams: 20000, price: 24.5 }] }],
    });
  });
});

describe("the store settings page", () => {
  const settings = { legalName: "Toolyard LLC", address: "1 Main St", city: "Portland", region: "OR", postalCode: "97201", country: "US", taxId: "", timeZone: "America/Los_Angeles" };

  it("loads the settings, empties the region when the country changes, and saves what passes", async () => {
    const api = standIn({ "GET /api/admin/settings": () => json(settings), "PUT /api/admin/settings": (c) => json(c.body) });
    const user = userEvent.setup();
    show(<StoreSettingsPage />);
    const form = await screen.findByRole("form", { name: "Store settings" });
    expect(within(form).getByLabelText("Legal name")).toHaveValue("Toolyard LLC");
    await user.selectOptions(within(form).getByLabelText("Country"), "CA");
    expect(within(form).getByLabelText("State / region")).toHaveValue("");
    await user.clear(within(form).getByLabelText("Postal code"));
    await user.type(within(form).getByLabelText("Postal code"), "V5K 0A1");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(alerts(form)).toContain(MONEY_TEXT.regionUnknown));
    expect(api.writes()).toEqual([]);
    await user.selectOptions(within(form).getByLabelText("State / region"), "BC");
    await user.type(within(form).getByLabelText(/Tax ID/), "BN 123");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]?.body).toEqual({ ...settings, region: "BC", country: "CA", postalCode: "V5K 0A1", taxId: "BN 123" });
  });
});

describe("the console's order page", () => {
  // As the API answers it (card payments' fields too, null for a cash order).
  const order = {
    _id: "o1",
    number: 42,
    toolId: "t1",
    name: "Drill",
    quantity: 2,
    unitPrice: 50,
    subtotal: 100,
    discount: 10,
    shipping: 12,
    tax: 7.83,
    total: 109.83,
    status: "cancelled",
    address: "5 Oak Ave",
    city: "Austin",
    region: "TX",
    postalCode: "73301",
    country: "US",
    phone: "555-0100",
    paymentMethod: "cash_on_delivery",
    shippingMethod: "m1",
    shippingMethodName: "Courier",
    promoCode: "SPRING10",
    taxRate: { name: "Texas", rateBasisPoints: 825 },
    taxExemptCertificate: null,
    invoiceNumber: "INV-2026-000007",
    creditNoteNumber: "CN-2026-000002",
    paymentProblem: "AMOUNT_MISMATCH",
    payment: null,
    paymentHoldUntil: null,
    note: "",
    createdAt: "2026-03-01T10:00:00.000Z",
    lines: [{ toolId: "t1", name: "Drill", quantity: 2, unitPrice: 50, lineTotal: 100, subtotal: 100, discount: 10, shipping: 12, tax: 7.83, total: 109.83 }],
    history: [{ status: "pending", at: "2026-03-01T10:00:00.000Z", by: "customer" }],
    customer: { id: "u1", name: "Pat", email: "pat@example.com" },
  };

  it("shows the money with the code, method and rate, the address, the payment problem and both documents", async () => {
    standIn({ "GET /api/admin/orders/o1": () => json(order) });
    show(
      <Routes>
        <Route path="/admin/orders/:id" element={<OrderPage />} />
      </Routes>,
      "/admin/orders/o1",
    );
    const money = await screen.findByTestId("order-money");
    for (const text of ["Subtotal", "$100.00", "Discount (SPRING10)", "−$10.00", "Shipping (Courier)", "$12.00", "Tax (Texas, 8.25 %)", "$7.83", "$109.83"]) expect(money).toHaveTextContent(text);
    expect(screen.getByTestId("order-address")).toHaveTextContent("5 Oak Ave");
    expect(screen.getByTestId("order-address")).toHaveTextContent("Austin, TX 73301");
    expect(screen.getByTestId("order-address")).toHaveTextContent("United States");
    expect(screen.getByTestId("payment-problem")).toHaveTextContent("AMOUNT_MISMATCH");
    expect(screen.getByRole("link", { name: "Download invoice" })).toHaveAttribute("href", "/api/order/o1/invoice");
    expect(screen.getByRole("link", { name: "Download credit note" })).toHaveAttribute("href", "/api/order/o1/invoice?document=credit-note");
    expect(screen.getByText(/Invoice INV-2026-000007/)).toBeInTheDocument();
  });
});

describe("the users page", () => {
  it("sets a customer's tax-exempt certificate and clears it", async () => {
    let certificate: string | null = null;
    const customer = () => ({ _id: "u1", name: "Trade Buyer", email: "trade@example.com", role: "user", createdAt: "2026-01-01T00:00:00.000Z", taxExemptCertificate: certificate });
    const api = standIn({
      "GET /api/admin/users": () => json([customer()]),
      "PATCH /api/admin/users/u1/tax-exempt": (c) => {
        const sent = (c.body as { taxExemptCertificate: string }).taxExemptCertificate;
        certificate = sent === "" ? null : sent;
        return json(customer());
      },
    });
    const user = userEvent.setup();
    show(<UsersPage />);
    const field = await screen.findByLabelText("Tax-exempt certificate of Trade Buyer");
    await user.type(field, "  EX-4411 ");
    await user.click(screen.getByRole("button", { name: "Set: Tax-exempt certificate of Trade Buyer" }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]?.body).toEqual({ taxExemptCertificate: "EX-4411" });
    await user.click(await screen.findByRole("button", { name: "Clear: Tax-exempt certificate of Trade Buyer" }));
    await waitFor(() => expect(api.writes()).toHaveLength(2));
    expect(api.writes()[1]?.body).toEqual({ taxExemptCertificate: "" });
    await waitFor(() => expect(screen.queryByRole("button", { name: /^Clear/ })).not.toBeInTheDocument());
  });
});

describe("the tool form", () => {
  it("shows a tool's weight and sends a changed one; a weight that is not whole grams is refused at the field", async () => {
    const tool = {
      _id: "t1",
      name: "Mower",
      image: "/images/tools/claw-hammer.svg",
      price: 300,
      availableQuantity: 5,
      minimumQuantity: 1,
      description: "A mower.",
      category: "lawn-mowers",
      active: true,
      lowStockThreshold: null,
      weightGrams: 28000,
      lowStock: false,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      priceTiers: [],
      rating: { average: 0, count: 0 },
      // The catalogue's fields, as the API sends them for a tool in no product (the list shows its category's path).
      sku: "TY-MOWER",
      gtin: null,
      brand: null,
      categoryPath: [{ slug: "lawn-mowers", name: "Lawn Mowers" }],
      images: ["/images/tools/claw-hammer.svg"],
      specs: [],
      product: null,
      optionValues: {},
      variants: [],
      priceFrom: 300,
      variantCount: 1,
    } satisfies AdminTool;
    const api = standIn({ "GET /api/admin/tools": () => json([tool]), "PATCH /api/admin/tools/t1": (c) => json({ ...tool, ...(c.body as object) }) });
    const user = userEvent.setup();
    show(<ToolsPage />);
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    const form = screen.getByRole("form", { name: "Edit Mower" });
    const weight = within(form).getByLabelText("Weight (grams)");
    expect(weight).toHaveValue(28000);
    await user.clear(weight);
    await user.type(weight, "27.5");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(alerts(form)).toContain(MONEY_TEXT.weightRange));
    expect(api.writes()).toEqual([]);
    await user.clear(weight);
    await user.type(weight, "27500");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]?.body).toMatchObject({ weightGrams: 27500 });
  });
});

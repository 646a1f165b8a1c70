import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Profile } from "../../../contract/schemas";
import MyProfile from "./my-profile";

const saved: Profile = {
  displayName: "Ada",
  email: "ada@example.com",
  address: "7 Anvil Row",
  city: "Albany",
  region: "NY",
  postalCode: "12207",
  country: "US",
  phone: "555 0100",
  taxExemptCertificate: null,
};

let puts: Array<Record<string, unknown>> = [];

function serve(profile: Profile) {
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const json = (data: unknown, status = 200) => new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json" } });
    if (url === "/api/me/profile" && init.method === "PUT") {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      puts.push(body);
      return json({ ...profile, ...body });
    }
    if (url === "/api/me/profile") return json(profile);
    // The security section's own calls are not this test's business.
    return json({ error: "NOT_FOUND", message: url }, 404);
  });
}

function open() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <MyProfile />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("My Profile's delivery address", () => {
  beforeEach(() => {
    puts = [];
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("keeps the spec's Address and Phone, and saves city, state, postal code and country beside them", async () => {
    serve(saved);
    open();
    expect(await screen.findByLabelText("Address")).toHaveValue("7 Anvil Row");
    expect(screen.getByLabelText("Phone")).toHaveValue("555 0100");
    expect(screen.getByLabelText("City")).toHaveValue("Albany");
    expect(screen.getByLabelText("State / Region")).toHaveValue("NY");

    // Canada's provinces replace the US states; the old state means nothing there.
    fireEvent.change(screen.getByLabelText("Country"), { target: { value: "CA" } });
    expect(screen.getByLabelText("State / Region")).toHaveValue("");
    fireEvent.change(screen.getByLabelText("State / Region"), { target: { value: "ON" } });
    fireEvent.change(screen.getByLabelText("City"), { target: { value: "Ottawa" } });
    fireEvent.change(screen.getByLabelText("Postal code"), { target: { value: "k1a 0b1" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ address: "7 Anvil Row", phone: "555 0100", city: "Ottawa", region: "ON", postalCode: "K1A 0B1", country: "CA" });
  });

  it("ties a postal code that does not fit the country to its field, and saves nothing", async () => {
    serve(saved);
    open();
    const postal = await screen.findByLabelText("Postal code");
    fireEvent.change(postal, { target: { value: "ABC" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    const message = await screen.findByText("This postal code does not fit the country");
    expect(postal).toHaveAttribute("aria-invalid", "true");
    expect(postal.getAttribute("aria-describedby")).toBe(message.id);
    expect(puts).toHaveLength(0);
  });

  it("names a trade customer's tax exemption", async () => {
    serve({ ...saved, taxExemptCertificate: "EX-42" });
    open();
    expect(await screen.findByTestId("profile-tax-exempt")).toHaveTextContent("Tax exempt: certificate EX-42");
  });
});

import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DataTable } from "./data-table";

describe("DataTable", () => {
  it("heads its columns once, in the record's order, as column headers of the table its label names", () => {
    render(
      <DataTable label="Members" columns={{ name: "Name", email: "E-mail", role: "Role" }}>
        <tr>
          <td>Ada</td>
          <td>ada@example.com</td>
          <td>Buyer</td>
        </tr>
      </DataTable>,
    );
    const table = screen.getByRole("table", { name: "Members" });
    expect(within(table).getAllByRole("columnheader").map((th) => [th.textContent, th.getAttribute("scope")])).toEqual([
      ["Name", "col"],
      ["E-mail", "col"],
      ["Role", "col"],
    ]);
    expect(within(table).getAllByRole("row")).toHaveLength(2);
  });

  it("takes a list of columns and a heading that names it, small", () => {
    render(
      <section>
        <h2 id="refunds">Refunds</h2>
        <DataTable labelledBy="refunds" columns={["Date", "Amount"]} small>
          <tr>
            <td>today</td>
            <td>$1.00</td>
          </tr>
        </DataTable>
      </section>,
    );
    const table = screen.getByRole("table", { name: "Refunds" });
    expect(table).toHaveClass("table-sm");
    expect(within(table).getAllByRole("columnheader").map((th) => th.textContent)).toEqual(["Date", "Amount"]);
  });
});

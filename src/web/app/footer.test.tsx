import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { Footer } from "./footer";

describe("Footer", () => {
  it("shows the four columns and the current year", () => {
    render(
      <MemoryRouter>
        <Footer />
      </MemoryRouter>,
    );
    for (const column of ["Services", "Company", "Legal", "Social"]) {
      expect(screen.getByRole("heading", { name: column })).toBeInTheDocument();
    }
    expect(screen.getByText(`Copyright © ${new Date().getFullYear()} Toolyard. All rights reserved.`)).toBeInTheDocument();
  });
});

import { describe, expect, it } from "vitest";
import { formatDay } from "./day-format";

describe("formatDay", () => {
  it("writes every day of 2020–2030, at any hour, as Intl's en-US medium date in UTC", () => {
    const intl = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
    const day = 86_400_000;
    for (let t = Date.UTC(2020, 0, 1); t < Date.UTC(2031, 0, 1); t += day) {
      for (const hour of [0, 13, 23]) {
        const date = new Date(t + hour * 3_600_000 + 59 * 60_000);
        expect(formatDay(date)).toBe(intl.format(date));
      }
    }
    expect(formatDay(new Date("2026-11-28T23:30:00Z"))).toBe("Nov 28, 2026");
  });
});

import type { ResolverOptions, ResolverResult } from "react-hook-form";
import { describe, expect, it, vi } from "vitest";
import { lazyResolver } from "./lazy-resolver";

type Values = { email: string };
const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<Values>;
const ok = (values: Values): ResolverResult<Values> => ({ values, errors: {} });

describe("lazyResolver", () => {
  it("loads nothing until the first validation, then once for every validation after it", async () => {
    const inner = vi.fn((values: Values) => ok(values));
    const load = vi.fn(async () => inner);
    const resolver = lazyResolver<Values, unknown, Values>(load);
    expect(load).not.toHaveBeenCalled();
    await expect(resolver({ email: "a@example.com" }, undefined, options)).resolves.toEqual(ok({ email: "a@example.com" }));
    await resolver({ email: "b@example.com" }, undefined, options);
    expect(load).toHaveBeenCalledOnce();
    expect(inner).toHaveBeenCalledTimes(2);
  });

  it("tries the load again after one that failed (a chunk that did not arrive)", async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error("offline")).mockResolvedValue((values: Values) => ok(values));
    const resolver = lazyResolver<Values, unknown, Values>(load);
    await expect(resolver({ email: "a@example.com" }, undefined, options)).rejects.toThrow("offline");
    await expect(resolver({ email: "a@example.com" }, undefined, options)).resolves.toEqual(ok({ email: "a@example.com" }));
    expect(load).toHaveBeenCalledTimes(2);
  });
});

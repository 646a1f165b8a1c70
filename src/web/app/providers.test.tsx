import { MutationObserver, type MutationObserverOptions, type MutateOptions, type QueryClient } from "@tanstack/react-query";
import { toast } from "react-toastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeQueryClient } from "./providers";

vi.mock("react-toastify", () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const failing = (message: string) => () => Promise.reject(new Error(message));

/** A mutation as a page runs it (a page's useMutation subscribes, so its own callbacks are called). */
function mutate(client: QueryClient, options: MutationObserverOptions<unknown, Error, void>, own?: MutateOptions<unknown, Error, void>) {
  const observer = new MutationObserver(client, options);
  observer.subscribe(() => undefined);
  return observer.mutate(undefined, own).catch(() => undefined);
}

describe("the query client's one handler of failed mutations", () => {
  afterEach(() => vi.mocked(toast.error).mockClear());

  it("toasts the failure of a mutation that asks for it, and only that one", async () => {
    const client = makeQueryClient();
    const ownHandler = vi.fn();
    // A shopper's page handles its own failure: the handler leaves it alone.
    await mutate(client, { mutationFn: failing("out of stock") }, { onError: ownHandler });
    await vi.waitFor(() => expect(ownHandler).toHaveBeenCalledTimes(1));
    await mutate(client, { mutationFn: failing("The last admin stays an admin."), meta: { toastError: true } });
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect(vi.mocked(toast.error).mock.calls).toEqual([["The last admin stays an admin."]]);
  });

  it("toasts nothing when the mutation succeeds", async () => {
    const client = makeQueryClient();
    await mutate(client, { mutationFn: () => Promise.resolve("ok"), meta: { toastError: true } });
    await mutate(client, { mutationFn: failing("after"), meta: { toastError: true } });
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect(vi.mocked(toast.error).mock.calls).toEqual([["after"]]);
  });
});

import { MutationCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { ApiRequestError } from "../lib/api";
import { listenToOtherTabs } from "../lib/session";

declare module "@tanstack/react-query" {
  interface Register {
    mutationMeta: {
      /** A failure is told in a toast with the API's message (the admin console's actions). */
      toastError?: boolean;
    };
  }
}

export function makeQueryClient() {
  return new QueryClient({
    // Only the mutations that ask for it: the shopper's pages show their own failures where they
    // happen, and one told twice would be one too many.
    mutationCache: new MutationCache({
      onError: (error, _variables, _onMutateResult, mutation) => {
        // Loaded when first needed: react-toastify stays out of the shopper's first download.
        // The console that asks for it has it loaded already, with its toast container.
        if (mutation.meta?.toastError) void import("react-toastify").then(({ toast }) => toast.error(error.message));
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Client errors will not fix themselves; network and server errors get two more tries.
        retry: (count, error) => count < 2 && !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500),
      },
    },
  });
}

/** `client`: one already seeded with the page's data (the server's render, or the browser's hydration of it). */
export function Providers({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? makeQueryClient());
  useEffect(() => listenToOtherTabs(queryClient), [queryClient]);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

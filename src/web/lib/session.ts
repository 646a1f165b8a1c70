/**
 * The signed-in user, as the server sees it (httpOnly cookie; nothing in localStorage).
 * Tabs tell each other about sign-in and sign-out so every open tab follows.
 */
import { queryOptions, useQuery, type QueryClient } from "@tanstack/react-query";
import type { SessionResponse } from "../../contract/schemas";
import { api } from "./api";

/** The first element of every query key that holds the signed-in customer's own data. */
export const PERSONAL_KEY = "me";

export const sessionQuery = queryOptions({
  queryKey: ["session"],
  queryFn: ({ signal }) => api.get<SessionResponse | null>("/api/auth/get-session", signal).then((r) => r?.user ?? null),
  staleTime: 60_000,
});

export function useSession() {
  const query = useQuery(sessionQuery);
  return { user: query.data ?? null, isPending: query.isPending };
}

const CHANNEL = "toolyard-session";
type SessionMessage = "signed-in" | "signed-out";
/**
 * This tab's name on the channel: a BroadcastChannel also hears other channel objects of the
 * same tab, and a tab must not refresh (and forget its just-fetched personal data) on its own news.
 */
const TAB = Math.random().toString(36).slice(2);

/** Forget everything that belonged to the previous user and fetch the session again. */
export async function refreshSession(queryClient: QueryClient): Promise<void> {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] === PERSONAL_KEY });
  await queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
}

export function announceSession(message: SessionMessage): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ message, tab: TAB });
  channel.close();
}

export function listenToOtherTabs(queryClient: QueryClient): () => void {
  if (typeof BroadcastChannel === "undefined") return () => undefined;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<{ tab?: string }>) => {
    if (event.data?.tab !== TAB) void refreshSession(queryClient);
  };
  return () => channel.close();
}

export async function signOut(queryClient: QueryClient): Promise<void> {
  await api.post("/api/auth/sign-out");
  queryClient.setQueryData(sessionQuery.queryKey, null);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] === PERSONAL_KEY });
  announceSession("signed-out");
}

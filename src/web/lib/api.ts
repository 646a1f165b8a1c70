/**
 * The one fetcher every feature uses. Same-origin, cookies included; errors become
 * ApiRequestError carrying the API's `{ error, message }` body.
 */
import { TEXT } from "../../contract/texts/site";
import type { ApiErrorBody } from "../../contract/schemas";

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Partial<ApiErrorBody> = {},
  ) {
    super(message);
  }
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

async function send(method: Method, path: string, body?: unknown, signal?: AbortSignal, extraHeaders?: Record<string, string>): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: {
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...extraHeaders,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiRequestError(0, "NETWORK", TEXT.states.networkError);
  }
  if (!response.ok) {
    const parsed = (await response.json().catch(() => ({}))) as Partial<ApiErrorBody> & { code?: string };
    const code = parsed.error ?? parsed.code ?? `HTTP_${response.status}`;
    throw new ApiRequestError(response.status, code, parsed.message ?? TEXT.states.error, parsed);
  }
  return response;
}

async function json<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => send("GET", path, undefined, signal).then((r) => json<T>(r)),
  post: <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
    send("POST", path, body ?? {}, undefined, headers).then((r) => json<T>(r)),
  put: <T>(path: string, body: unknown) => send("PUT", path, body).then((r) => json<T>(r)),
  patch: <T>(path: string, body: unknown) => send("PATCH", path, body).then((r) => json<T>(r)),
  delete: <T>(path: string) => send("DELETE", path).then((r) => json<T>(r)),
  /** A page of a list, with the total from X-Total-Count; `exact` is false when the API only says "at least". */
  async list<T>(path: string, signal?: AbortSignal): Promise<{ items: T[]; total: number; exact: boolean }> {
    const response = await send("GET", path, undefined, signal);
    const items = await json<T[]>(response);
    const h = response.headers;
    return { items, total: Number(h.get("x-total-count") ?? items.length), exact: h.get("x-total-count-exact") !== "false" };
  },
};

/** Builds `path?k=v` from the defined values only. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, String(value));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

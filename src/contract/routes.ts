/**
 * Every page of the web app, as its router declares them (a test holds the two together), so
 * the server can answer any other path with a real 404 status (and the app's 404 page).
 */
export const PAGE_PATHS = [
  "/",
  "/tools",
  "/tools/:id",
  "/about",
  "/blogs",
  "/legal",
  "/login",
  "/signup",
  "/forgot-password",
  "/reset-password",
  "/two-factor",
  "/cart",
  "/checkout",
  "/checkout/confirmation/:id",
  "/purchase/:id",
  "/dashboard",
  "/dashboard/review",
  "/dashboard/profile",
  "/dashboard/orders/:id",
  /** The admin console: one lazy chunk with routes of its own (src/web/features/admin/console.tsx). */
  "/admin/*",
] as const;

/** Pages a search engine may read and list (the sitemap); everything else is personal. */
export const PUBLIC_PATHS = ["/", "/tools", "/about", "/blogs", "/legal"] as const;

/** Paths crawlers are asked to keep out of (robots.txt). */
export const PRIVATE_PREFIXES = ["/dashboard", "/admin", "/api", "/cart", "/checkout", "/purchase"] as const;

/** The page pattern a path belongs to, and its `:params`; null for a path no page has. */
export function matchPage(pathname: string): { pattern: (typeof PAGE_PATHS)[number]; params: Record<string, string> } | null {
  const parts = pathname.split("/").filter(Boolean);
  for (const pattern of PAGE_PATHS) {
    if (pattern.endsWith("/*")) {
      const prefix = pattern.slice(1, -2);
      if (parts[0] === prefix) return { pattern, params: {} };
      continue;
    }
    const wanted = pattern.split("/").filter(Boolean);
    if (wanted.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const fits = wanted.every((segment, i) => {
      const part = parts[i] as string;
      if (segment.startsWith(":")) {
        params[segment.slice(1)] = decodeURIComponentSafe(part);
        return part.length > 0;
      }
      return segment === part;
    });
    if (fits) return { pattern, params };
  }
  return null;
}

function decodeURIComponentSafe(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * The gate every request to better-auth passes first. Three rules, each with no exceptions:
 *
 * 1. The path we check is the path better-auth routes. better-auth resolves `.`, `..` and
 *    `%2e` segments before routing (WHATWG URL rules), so `/api/auth/./sign-in/email` would
 *    reach sign-in while a check of the raw path saw something else. A path that is not
 *    already in its canonical form is refused with 400 before anything reads it.
 * 2. Every POST body is validated by our rules: the forms' schemas for sign-in and sign-up,
 *    and for every other endpoint the field rules below, so a new endpoint that takes a
 *    `name`, an `email` or a new password obeys the sign-up rules without being listed.
 * 3. Every POST counts against the limits: failures per client address and, where the body
 *    names an e-mail, per e-mail; a success hands its attempt back. Only sign-out is exempt
 *    (a customer can always leave).
 */
import type { FastifyRequest } from "fastify";
import { z, type ZodType } from "zod";
import { changePasswordSchema, forgotPasswordSchema, passwordOnlySchema, resetPasswordSchema, twoFactorCodeSchema } from "../../contract/account-schemas";
import { emailSchema, loginSchema, nameSchema, passwordSchema, signupSchema } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { AUTH_ERRORS } from "../../contract/texts/auth";
import { ApiError } from "../http/errors";
import { memorySlowLane, type Limiter, type SlowLane } from "./limiter";

export const AUTH_BASE = "/api/auth";

/** How a POST counts against the limits. */
type LimitKind =
  /** Per address, and per e-mail if the body names one, on arrival; handed back on success. */
  | "attempt"
  /** Creates an account: per e-mail on arrival; per address only once it fails (an office signs up together). */
  | "signup"
  /** Sends mail (a reset link, a verification link): per address and per e-mail on arrival, never handed back. */
  | "mail"
  | "none";

export interface AuthPostPolicy {
  body: ZodType<Record<string, unknown>>;
  limit: LimitKind;
  /** May end sessions or change who a session belongs to: remembered sessions are forgotten. */
  changesSessions: boolean;
  /**
   * The answer is sent no sooner than this many ms after the request arrived, so its timing
   * does not tell whether the e-mail has an account (the forgot-password form).
   */
  minimumMs?: number;
}

/**
 * Rules for the fields better-auth endpoints take, wherever they appear: a name follows the
 * sign-up rule, an e-mail the e-mail rule, a new password the password rule.
 */
const fieldRules = z.looseObject({
  name: nameSchema.optional(),
  email: emailSchema.optional(),
  newEmail: emailSchema.optional(),
  password: passwordSchema.optional(),
  newPassword: passwordSchema.optional(),
});

const DEFAULT_POLICY: AuthPostPolicy = { body: fieldRules, limit: "attempt", changesSessions: true };

/** Endpoints that differ from the default; paths below /api/auth. */
const POLICIES: Record<string, Partial<AuthPostPolicy>> = {
  "/sign-in/email": { body: z.looseObject(loginSchema.shape), changesSessions: false },
  "/sign-up/email": { body: z.looseObject(signupSchema.shape), limit: "signup", changesSessions: false },
  "/sign-in/social": { changesSessions: false },
  "/sign-out": { limit: "none" },
  "/request-password-reset": {
    body: z.looseObject({ ...forgotPasswordSchema.shape, redirectTo: z.string().max(200).optional() }),
    limit: "mail",
    changesSessions: false,
    minimumMs: 400,
  },
  "/reset-password": { body: z.looseObject(resetPasswordSchema.shape) },
  "/send-verification-email": { body: z.looseObject({ email: emailSchema, callbackURL: z.string().max(200).optional() }), limit: "mail", changesSessions: false },
  "/change-password": {
    body: z.looseObject({ ...changePasswordSchema.shape, revokeOtherSessions: z.boolean().optional() }),
  },
  "/revoke-session": { body: z.looseObject({ token: z.string().min(1).max(200) }) },
  "/two-factor/enable": { body: z.looseObject(passwordOnlySchema.shape) },
  "/two-factor/disable": { body: z.looseObject(passwordOnlySchema.shape) },
  "/two-factor/get-totp-uri": { body: z.looseObject(passwordOnlySchema.shape), changesSessions: false },
  "/two-factor/generate-backup-codes": { body: z.looseObject(passwordOnlySchema.shape), changesSessions: false },
  "/two-factor/verify-totp": { body: z.looseObject({ ...twoFactorCodeSchema.shape, trustDevice: z.boolean().optional() }) },
  "/two-factor/verify-backup-code": { body: z.looseObject({ ...twoFactorCodeSchema.shape, trustDevice: z.boolean().optional() }) },
};

export function policyFor(path: string): AuthPostPolicy {
  return { ...DEFAULT_POLICY, ...POLICIES[path.slice(AUTH_BASE.length)] };
}

/** A path segment as better-auth's routes spell them: no dots of their own, no escapes. */
const SEGMENT = /^[A-Za-z0-9_~-]+(?:\.[A-Za-z0-9_~-]+)*$/;

/**
 * The request's path if it is canonical (what a URL parser would leave unchanged, with no
 * empty, dot or percent-encoded segment), else undefined.
 */
export function canonicalAuthPath(url: string): string | undefined {
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  if (!path.startsWith(`${AUTH_BASE}/`)) return undefined;
  const segments = path.slice(AUTH_BASE.length + 1).split("/");
  if (!segments.every((s) => SEGMENT.test(s))) return undefined;
  // Belt and braces: what a WHATWG parser makes of it must be the same path.
  return new URL(path, "http://x").pathname === path ? path : undefined;
}

export const nonCanonicalPath = () => new ApiError(400, "BAD_PATH", API_TEXT.badPath);

export interface Limiters {
  byAddress: Limiter;
  /** Per (e-mail, address) pair: a guesser's own device is refused, never the owner's. */
  byEmail: Limiter;
  /** Per e-mail across addresses: past its max, attempts are slowed down and the owner told (never refused). */
  byAccount?: Limiter;
  /** One alert per account per window (max 1). */
  alerts?: Limiter;
  /** Where slowed attempts wait their turn: this process, or Redis shared by every instance. */
  slowLane?: SlowLane;
}

/** How far apart attempts at one account are served once it is under attack from many addresses. */
export const SLOWDOWN_MS = 1000;
/** The lane of a process whose Limiters bring none (tests that build their own). */
const defaultSlowLane = memorySlowLane(SLOWDOWN_MS);

/** What to do once better-auth has answered: a success hands its attempts back. */
export type Settle = (ok: boolean) => Promise<void>;

export interface Admission {
  /** The body to forward: the caller's, with the fields our rules normalised (trimmed). */
  body: Record<string, unknown>;
  settle: Settle;
  policy: AuthPostPolicy;
  /** Set when this attempt took the account past its limit: its owner gets one e-mail for the window. */
  alertOwner?: string;
}

export async function tooMany(limiter: Limiter, key: string): Promise<ApiError> {
  const seconds = Math.max(1, Math.ceil((await limiter.retryAfterMs(key)) / 1000));
  return new ApiError(429, "RATE_LIMITED", AUTH_ERRORS.tooManyRequests, {}, { "retry-after": String(seconds) });
}

/**
 * Validates a POST to better-auth and counts it. Sign-ins are counted on arrival, so a burst
 * of parallel guesses cannot slip through before the first one fails; a guess at an account
 * that is already locked out does not also spend the address's budget.
 */
export async function admit(request: FastifyRequest, path: string, limiters: Limiters): Promise<Admission> {
  const policy = policyFor(path);
  const raw = request.body ?? {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new ApiError(400, "VALIDATION", API_TEXT.invalidInput, { details: [{ path: "", message: API_TEXT.invalidInput }] });
  }
  const parsed = policy.body.safeParse(raw);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ApiError(400, "VALIDATION", details[0]?.message ?? API_TEXT.invalidInput, { details });
  }
  const body = { ...(raw as Record<string, unknown>), ...parsed.data };
  const { byEmail, byAddress } = limiters;
  const email = typeof parsed.data.email === "string" ? parsed.data.email : undefined;
  const addressKey = `ip:${request.ip}`;
  // Sign-in and sign-up count per (e-mail, address) pair; mail requests per e-mail.
  const emailKey = email === undefined ? undefined : policy.limit === "mail" ? `email:${email}` : `email:${email}|${addressKey}`;

  if (policy.limit === "none") return { body, policy, settle: async () => undefined };
  if (policy.limit === "mail") {
    // Counted whatever the answer (it is the same for a known and an unknown e-mail).
    if (!(await byAddress.hit(addressKey))) throw await tooMany(byAddress, addressKey);
    if (emailKey !== undefined && !(await byEmail.hit(emailKey))) throw await tooMany(byEmail, emailKey);
    return { body, policy, settle: async () => undefined };
  }
  if (emailKey !== undefined && !(await byEmail.hit(emailKey))) throw await tooMany(byEmail, emailKey);
  const refundEmail = async () => {
    if (emailKey !== undefined) await byEmail.refund(emailKey);
  };

  // A sign-up counts against the address only once it fails; everything else on arrival.
  const countsOnArrival = policy.limit === "attempt";
  const addressOpen = countsOnArrival ? await byAddress.hit(addressKey) : !(await byAddress.exhausted(addressKey));
  if (!addressOpen) {
    await refundEmail();
    throw await tooMany(byAddress, addressKey);
  }
  // Many addresses failing at one account: slow them down and tell the owner, never refuse.
  let alertOwner: string | undefined;
  const accountKey = email === undefined ? undefined : `account:${email}`;
  const { byAccount, alerts } = limiters;
  if (byAccount && accountKey !== undefined && countsOnArrival && !(await byAccount.hit(accountKey))) {
    if (alerts && (await alerts.hit(accountKey))) alertOwner = email;
    const waitMs = await (limiters.slowLane ?? defaultSlowLane).take(accountKey);
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  const settle: Settle = async (ok) => {
    if (ok) await Promise.all([refundEmail(), countsOnArrival ? byAddress.refund(addressKey) : undefined, accountKey !== undefined && countsOnArrival ? byAccount?.refund(accountKey) : undefined]);
    else if (!countsOnArrival) await byAddress.hit(addressKey);
  };
  return { body, policy, settle, ...(alertOwner ? { alertOwner } : {}) };
}

/** Which credential a request carries, as the key its resolved session is remembered under. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/;

/** The credential a request carries: its bearer token, else its session cookie. */
export function credentialOf(headers: { authorization?: string | undefined; cookie?: string | undefined }): string | undefined {
  const auth = headers.authorization;
  if (auth && auth.slice(0, 7).toLowerCase() === "bearer ") return `b:${auth.slice(7).trim()}`;
  const match = headers.cookie ? SESSION_COOKIE.exec(headers.cookie) : null;
  return match?.[1] ? `c:${match[1]}` : undefined;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) standing in for Google
 * in browser tests. Its dev login page accepts any login: the login is the e-mail.
 * Logins starting with "unverified+" get email_verified=false.
 */
import type { Server } from "node:http";
import Provider from "oidc-provider";

export const OIDC_CLIENT = { id: "toolyard-test-client", secret: "toolyard-test-secret-0123456789abcdef" };

export async function startOidcProvider(port: number, appUrl: string): Promise<{ issuer: string; close: () => Promise<void> }> {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [`${appUrl}/api/auth/callback/google`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => {
        const email = id.replace(/^unverified\+/, "");
        return {
          sub: `sub-${email}`,
          email,
          email_verified: !id.startsWith("unverified+"),
          name: email.split("@")[0]?.replace(/[._-]/g, " ") ?? email,
        };
      },
    }),
    // Tests drive it over plain http on loopback.
    cookies: { keys: ["oidc-test-cookie-key-0123456789"] },
  });
  const server: Server = await new Promise((resolve) => {
    const s = provider.listen(port, "127.0.0.1", () => resolve(s));
  });
  return { issuer, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

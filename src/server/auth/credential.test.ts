import { describe, expect, it } from "vitest";
import { credentialOf } from "./credential";

describe("credentialOf", () => {
  it("reads a bearer token or the session cookie", () => {
    expect(credentialOf({ authorization: "Bearer abc" })).toBe("b:abc");
    expect(credentialOf({ cookie: "x=1; better-auth.session_token=tok.sig; y=2" })).toBe("c:tok.sig");
    expect(credentialOf({ cookie: "__Secure-better-auth.session_token=s" })).toBe("c:s");
    expect(credentialOf({ cookie: "other=1" })).toBeUndefined();
    expect(credentialOf({})).toBeUndefined();
  });
});

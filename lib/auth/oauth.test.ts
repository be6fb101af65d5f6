import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { UNSAFE_DISPLAY_LIST, codePoint } from "@/tests/fixtures/display-text";
import { OAuthError, parseRegistration, pkceMatches, redirectUriProblem, scopeOf } from "./oauth";

// The rules that need no storage: which redirect URIs a client may register, PKCE S256, scopes.

describe("redirect URIs", () => {
  it("takes https anywhere and http on loopback only", () => {
    for (const ok of ["https://claude.ai/api/mcp/auth_callback", "https://vscode.dev/redirect", "http://127.0.0.1:33418/", "http://localhost:6274/oauth/callback", "http://[::1]:8080/cb", "https://a.test/cb?x=1"]) {
      expect(redirectUriProblem(ok), ok).toBeNull();
    }
  });

  it("refuses what could hand a code to someone else", () => {
    for (const bad of ["http://a.test/cb", "http://127.0.0.2.nip.io/cb", "http://localhost.attacker.test/cb", "ftp://a.test/", "javascript:alert(1)", "data:text/html,x", "vscode://cb", "//a.test/cb", "https://a.test/cb#frag", "https://a.test/cb#", "https://user@a.test/cb", "https://a.test/c b", "https://a.test/\u0085", "", 7, null]) {
      expect(redirectUriProblem(bad), String(bad)).not.toBeNull();
    }
    expect(redirectUriProblem(`https://a.test/${"x".repeat(497)}`)).toBeNull();
    expect(redirectUriProblem(`https://a.test/${"x".repeat(498)}`)).not.toBeNull();
  });
});

describe("registration metadata", () => {
  it("keeps the name, the distinct URIs and an https client_uri; names a nameless app", () => {
    expect(parseRegistration({ redirect_uris: ["https://a.test/cb", "https://a.test/cb"] })).toEqual({ client_name: "An unnamed app", redirect_uris: ["https://a.test/cb"], client_uri: null });
    expect(parseRegistration({ client_name: " X ", client_uri: "https://x.test", redirect_uris: ["https://a.test/cb"] })).toMatchObject({ client_name: "X", client_uri: "https://x.test" });
  });

  it("answers each refusal with RFC 7591's codes", () => {
    const codeOf = (body: unknown) => {
      try {
        parseRegistration(body);
        return "accepted";
      } catch (err) {
        expect(err).toBeInstanceOf(OAuthError);
        return (err as OAuthError).error;
      }
    };
    expect(codeOf(null)).toBe("invalid_client_metadata");
    expect(codeOf("x")).toBe("invalid_client_metadata");
    expect(codeOf({ redirect_uris: "https://a.test/cb" })).toBe("invalid_redirect_uri");
    expect(codeOf({ redirect_uris: ["https://a.test/cb"], token_endpoint_auth_method: "private_key_jwt" })).toBe("invalid_client_metadata");
    expect(codeOf({ redirect_uris: ["https://a.test/cb"], grant_types: "authorization_code" })).toBe("invalid_client_metadata");
    expect(codeOf({ redirect_uris: ["https://a.test/cb"], client_name: "a\u2028b" })).toBe("invalid_client_metadata");
  });
});

describe("names that cannot lie", () => {
  const refusal = (body: unknown) => {
    try {
      parseRegistration(body);
    } catch (err) {
      expect(err).toBeInstanceOf(OAuthError);
      return err as OAuthError;
    }
    throw new Error(`accepted ${JSON.stringify(body)}`);
  };

  it("refuses a client_name with any bidirectional control, zero-width or control character, naming the field and the character", () => {
    for (const ch of UNSAFE_DISPLAY_LIST) {
      for (const name of [`${ch}Claude`, `Clau${ch}de`, `Claude${ch}`]) {
        const err = refusal({ client_name: name, redirect_uris: ["https://a.test/cb"] });
        expect(err.error).toBe("invalid_client_metadata");
        expect(err.description, codePoint(ch)).toMatch(new RegExp(`^client_name may not contain ${codePoint(ch).replace("+", "\\+")}, a `));
      }
    }
    // "VS Code" shown as "edoC SV" with the right-to-left override.
    expect(refusal({ client_name: "\u202eedoC SV", redirect_uris: ["https://a.test/cb"] }).description).toContain("U+202E, a bidirectional control");
  });

  it("refuses them in client_uri and redirect URIs too", () => {
    for (const ch of UNSAFE_DISPLAY_LIST) {
      expect(refusal({ client_uri: `https://a.test/${ch}x`, redirect_uris: ["https://a.test/cb"] }).error, codePoint(ch)).toBe("invalid_client_metadata");
      expect(redirectUriProblem(`https://a.test/${ch}cb`), codePoint(ch)).toMatch(/may not contain U\+/);
    }
  });

  it("takes names in any script as written", () => {
    for (const name of ["\u05e9\u05dc\u05d5\u05dd", "\u0645\u0631\u062d\u0628\u0627 app", "日本語", "Crème 🚀"]) {
      expect(parseRegistration({ client_name: name, redirect_uris: ["https://a.test/cb"] }).client_name).toBe(name);
    }
  });
});

describe("PKCE", () => {
  const verifier = "a".repeat(43);
  const challenge = createHash("sha256").update(verifier).digest("base64url");

  it("matches S256 only", () => {
    expect(pkceMatches(verifier, challenge)).toBe(true);
    // plain: the challenge is the verifier itself.
    expect(pkceMatches(verifier, verifier)).toBe(false);
    expect(pkceMatches(challenge, challenge)).toBe(false);
  });

  it("refuses verifiers outside RFC 7636's alphabet and length", () => {
    const c = (v: string) => createHash("sha256").update(v).digest("base64url");
    expect(pkceMatches("a".repeat(42), c("a".repeat(42)))).toBe(false);
    expect(pkceMatches("a".repeat(128), c("a".repeat(128)))).toBe(true);
    expect(pkceMatches("a".repeat(129), c("a".repeat(129)))).toBe(false);
    expect(pkceMatches(`${"a".repeat(42)}+`, c(`${"a".repeat(42)}+`))).toBe(false);
    expect(pkceMatches(`${"a".repeat(42)}é`, c(`${"a".repeat(42)}é`))).toBe(false);
  });
});

describe("scopes", () => {
  it("defaults to dashboards and refuses anything else", () => {
    expect(scopeOf(null)).toBe("dashboards");
    expect(scopeOf("  ")).toBe("dashboards");
    expect(scopeOf("dashboards dashboards")).toBe("dashboards");
    expect(() => scopeOf("dashboards write")).toThrow(OAuthError);
    expect(() => scopeOf("openid")).toThrow(/invalid_scope/);
  });
});

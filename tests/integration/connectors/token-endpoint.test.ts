import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { UpstreamError } from "@/lib/connectors/http";
import { connectors } from "@/lib/connectors/registry";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { namedApiBase, requestTokens, TokenRefused } from "@/lib/connectors/token-endpoint";

// The app as an OAuth client of a vendor's token endpoint, over loopback HTTP. Vendors say no in
// different ways: RFC 6749's 400 with `error`, and GitHub's 200 with `error` and no token. Either
// way the grant is gone, which the app must tell apart from a failure worth trying again.

let answer: { status: number; body: string } = { status: 200, body: "{}" };
let served: Served;
let config: ReturnType<typeof parseConfig>;

beforeAll(async () => {
  served = await serveOnLoopback(async () => new Response(answer.body, { status: answer.status, headers: { "content-type": "application/json" } }));
  config = parseConfig({
    CODEREPO_CLIENT_ID: "client",
    CODEREPO_CLIENT_SECRET: "secret",
    CODEREPO_TOKEN_URL: `${served.url}/login/oauth/access_token`,
    CALLS_CLIENT_ID: "client",
    CALLS_CLIENT_SECRET: "secret",
    CALLS_TOKEN_URL: `${served.url}/oauth2/generate-customer-token`,
  });
});
afterAll(async () => {
  await served.close();
});

const refresh = () => requestTokens(config, connectors.coderepo, { grant_type: "refresh_token", refresh_token: "ghr_old" }, 1_000);

describe("requestTokens", () => {
  it("answers the issued pair with its expiry", async () => {
    answer = { status: 200, body: JSON.stringify({ access_token: "ghu_new", refresh_token: "ghr_new", expires_in: 28800, token_type: "bearer", scope: "" }) };
    expect(await refresh()).toEqual({ accessToken: "ghu_new", refreshToken: "ghr_new", expiresAt: 1_000 + 28_800_000, scope: "", apiBaseUrl: null });
  });

  it("takes a 400 with OAuth's error as a refusal", async () => {
    answer = { status: 400, body: JSON.stringify({ error: "invalid_grant", error_description: "The refresh token was already used." }) };
    await expect(refresh()).rejects.toEqual(new TokenRefused("invalid_grant", "The refresh token was already used."));
  });

  it("takes GitHub's refusal, a 200 with an error and no token, as a refusal", async () => {
    answer = {
      status: 200,
      body: JSON.stringify({
        error: "bad_refresh_token",
        error_description: "The refresh token passed is incorrect or expired.",
        error_uri: "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors",
      }),
    };
    const err = await refresh().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TokenRefused);
    expect(err).toMatchObject({ code: "bad_refresh_token", description: "The refresh token passed is incorrect or expired." });
  });

  it("takes a 200 with neither a token nor an error as the vendor's failure, not a refusal", async () => {
    answer = { status: 200, body: JSON.stringify({ token_type: "bearer" }) };
    const err = await refresh().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ kind: "bad_response" });
  });

  it("reads where the customer's API is from the field the connector names (Gong's api_base_url_for_customer)", async () => {
    const gong = { access_token: "a", refresh_token: "r", expires_in: 86_400, scope: "api:calls:read:basic", token_type: "bearer" };
    const renew = () => requestTokens(config, connectors.calls, { grant_type: "refresh_token", refresh_token: "r0" }, 1_000);
    answer = { status: 200, body: JSON.stringify({ ...gong, api_base_url_for_customer: "https://us-40512.api.gong.io/" }) };
    expect(await renew()).toMatchObject({ accessToken: "a", apiBaseUrl: "https://us-40512.api.gong.io" });
    // The same field means nothing to a connector that does not name it.
    answer = { status: 200, body: JSON.stringify({ access_token: "ghu_new", api_base_url_for_customer: "https://elsewhere.test" }) };
    expect((await refresh()).apiBaseUrl).toBeNull();
    // A base the app would not send a token to is ignored, and the issued pair is still kept.
    for (const bad of ["javascript:alert(1)", "https://user:pw@us-1.api.gong.io", "https://us-1.api.gong.io/?x=1", 42]) {
      answer = { status: 200, body: JSON.stringify({ ...gong, api_base_url_for_customer: bad }) };
      expect(await renew()).toMatchObject({ accessToken: "a", refreshToken: "r", apiBaseUrl: null });
    }
  });

  it("never takes a plain-http base from a token endpoint reached over https", () => {
    expect(namedApiBase("http://us-1.api.gong.io", new URL("https://app.gong.io/oauth2/generate-customer-token"))).toBeNull();
    expect(namedApiBase("https://us-1.api.gong.io", new URL("https://app.gong.io/oauth2/generate-customer-token"))).toBe("https://us-1.api.gong.io");
    expect(namedApiBase("http://127.0.0.1:3000/stand-ins/calls/us-1", new URL("http://127.0.0.1:3000/stand-ins/calls/oauth/token"))).toBe("http://127.0.0.1:3000/stand-ins/calls/us-1");
  });

  it("takes a 5xx as the vendor's failure, worth trying again later", async () => {
    answer = { status: 503, body: JSON.stringify({ error: "temporarily_unavailable" }) };
    const err = await refresh().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ kind: "server", status: 503 });
  });
});

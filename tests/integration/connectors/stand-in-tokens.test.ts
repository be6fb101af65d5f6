import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parseConfig } from "@/lib/config";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { createStandIns } from "@/lib/connectors/stand-ins";
import { newOAuthMemory, StandInOAuth, type StandInCaller } from "@/lib/connectors/stand-in/oauth";
import { storedOAuthMemory } from "@/lib/connectors/stand-in/memory-store";
import { createSealer } from "@/lib/crypto/secrets";
import { openDb, type OpenDb } from "@/lib/db";
import { backends } from "../support/backends";

// The stand-ins' tokens behave like the vendors' that expire them: an access token lives for its
// lifetime, a refresh token gives a new pair once and rotates, a refresh token used twice revokes
// the whole grant, and /oauth/revoke ends a grant. Over real loopback HTTP, with the stand-in's
// clock in the test's hands.

const sealer = createSealer("stand-in-tokens-test-key-".repeat(2));
const account = "csm@demo.test";
const redirectUri = "http://app.test/connections/tracker/callback";
const verifier = "v".repeat(43);
const TTL_MS = 60_000;

function server(tokenTtlMs: number | undefined) {
  let now = 1_900_000_000_000;
  const oauth = new StandInOAuth({ slug: "tracker", product: "Linear", tokenPrefix: "lin_oauth", sealer, accounts: () => [account], consent: true, tokenTtlMs, now: () => now });
  const caller: StandInCaller = { signedIn: async () => account, callback: redirectUri, sameSite: true };
  const handler = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const answered = await oauth.serve(request, path, caller);
    if (answered) return answered;
    // A data endpoint, as the stand-ins' APIs check a token.
    const state = await oauth.inspect(request.headers.get("authorization"));
    return state.ok ? Response.json({ email: state.email }) : Response.json({ error: state.reason }, { status: 401 });
  };
  return { oauth, handler, advance: (ms: number) => (now += ms) };
}

describe("stand-in tokens that expire and rotate", () => {
  let served: Served;
  let s: ReturnType<typeof server>;

  const form = (path: string, body: Record<string, string>) =>
    fetch(`${served.url}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body), redirect: "manual" });
  const read = (token: string) => fetch(`${served.url}/me`, { headers: { authorization: `Bearer ${token}` } });
  const refresh = (token: string) => form("/oauth/token", { grant_type: "refresh_token", refresh_token: token, client_id: "dashboards-tracker" });

  async function grant(): Promise<{ access_token: string; refresh_token: string; expires_in: number }> {
    const approved = await form("/oauth/authorize", {
      redirect_uri: redirectUri,
      response_type: "code",
      state: "s",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      decision: "approve",
    });
    const code = new URL(approved.headers.get("location") ?? "").searchParams.get("code") ?? "";
    const res = await form("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier });
    expect(res.status).toBe(200);
    return res.json();
  }

  beforeAll(async () => {
    s = server(TTL_MS);
    served = await serveOnLoopback(s.handler);
  });
  afterAll(async () => {
    await served.close();
  });

  it("issues an access token for its lifetime and a refresh token that gives a new pair", async () => {
    const first = await grant();
    expect(first.expires_in).toBe(TTL_MS / 1000);
    expect(first.refresh_token).toMatch(/^lin_oauth_rt_/);
    expect(await (await read(first.access_token)).json()).toEqual({ email: account });

    s.advance(TTL_MS);
    const expired = await read(first.access_token);
    expect([expired.status, await expired.json()]).toEqual([401, { error: "expired" }]);

    const renewed = await refresh(first.refresh_token);
    expect(renewed.status).toBe(200);
    const second = await renewed.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await (await read(second.access_token)).json()).toEqual({ email: account });
  });

  it("revokes the whole grant when a refresh token is used twice", async () => {
    const first = await grant();
    const second = await (await refresh(first.refresh_token)).json();
    // The first refresh token again: someone else holds a copy.
    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe("invalid_grant");
    // Every token of that grant is refused from now on, the newest pair included.
    expect([(await read(second.access_token)).status, (await refresh(second.refresh_token)).status]).toEqual([401, 400]);
    expect(await (await read(second.access_token)).json()).toEqual({ error: "revoked" });
  });

  it("ends a grant at /oauth/revoke, given either of its tokens, and answers 200 for anything", async () => {
    const a = await grant();
    expect((await form("/oauth/revoke", { token: a.refresh_token })).status).toBe(200);
    expect(await (await read(a.access_token)).json()).toEqual({ error: "revoked" });
    expect((await refresh(a.refresh_token)).status).toBe(400);

    const b = await grant();
    expect((await form("/oauth/revoke", { token: b.access_token })).status).toBe(200);
    expect((await refresh(b.refresh_token)).status).toBe(400);
    expect((await form("/oauth/revoke", { token: "not-a-token" })).status).toBe(200);
  });

  it("refuses refresh tokens it did not issue, or issued for another product", async () => {
    const a = await grant();
    const forged = a.refresh_token.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect((await refresh(forged)).status).toBe(400);
    const other = new StandInOAuth({ slug: "coderepo", product: "GitHub", tokenPrefix: "lin_oauth", sealer, accounts: () => [account], consent: true, tokenTtlMs: TTL_MS });
    const foreign = other.mintGrant(account).refresh_token ?? "";
    expect((await refresh(foreign)).status).toBe(400);
  });

  it("mints a grant in-process for shared credentials, refreshable like any other", async () => {
    const minted = s.oauth.mintGrant(account);
    expect(minted.expires_in).toBe(TTL_MS / 1000);
    expect((await refresh(minted.refresh_token ?? "")).status).toBe(200);
  });
});

describe("stand-in tokens of a product whose tokens last", () => {
  it("issues no lifetime and no refresh token, and refuses a refresh", async () => {
    const s = server(undefined);
    const served = await serveOnLoopback(s.handler);
    try {
      const minted = s.oauth.mintGrant(account);
      expect(minted.expires_in).toBeUndefined();
      expect(minted.refresh_token).toBeUndefined();
      s.advance(365 * 86_400_000);
      expect(await s.oauth.inspect(`Bearer ${minted.access_token}`)).toEqual({ ok: true, email: account });
      const res = await fetch(`${served.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "lin_oauth_rt_x.y" }),
      });
      expect(res.status).toBe(400);
      // A lasting token is still of a grant, so the workspace can revoke it.
      const revoked = await fetch(`${served.url}/oauth/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: minted.access_token }),
      });
      expect(revoked.status).toBe(200);
      expect(await s.oauth.inspect(`Bearer ${minted.access_token}`)).toEqual({ ok: false, reason: "revoked" });
    } finally {
      await served.close();
    }
  });
});

describe("stand-in tokens of a shared credential that expires", () => {
  it("renews over HTTP with a refresh token minted in-process, and hands out nothing else", async () => {
    const oauth = new StandInOAuth({ slug: "calls", product: "Gong", tokenPrefix: "gong", sealer, accounts: () => [account], consent: false, tokenTtlMs: TTL_MS });
    const served = await serveOnLoopback(async (request) => (await oauth.serve(request, new URL(request.url).pathname, undefined)) ?? new Response(null, { status: 404 }));
    const post = (path: string, body: Record<string, string>) =>
      fetch(`${served.url}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body) });
    try {
      const minted = oauth.mintGrant(account);
      const renewed = await post("/oauth/token", { grant_type: "refresh_token", refresh_token: minted.refresh_token ?? "" });
      expect(renewed.status).toBe(200);
      expect((await renewed.json()).refresh_token).toMatch(/^gong_rt_/);
      const code = await post("/oauth/token", { grant_type: "authorization_code", code: "x.y", redirect_uri: "http://app.test/cb", code_verifier: "v".repeat(43) });
      expect([code.status, (await code.json()).error]).toEqual([404, "not_found"]);
      expect((await fetch(`${served.url}/oauth/authorize?response_type=code`)).status).toBe(404);
    } finally {
      await served.close();
    }
  });
});

describe("stand-in OAuth memory", () => {
  it("keeps a revoked grant revoked and a used refresh token used when the stand-in is mounted anew", async () => {
    const memory = newOAuthMemory();
    const options = { slug: "tracker", product: "Linear", tokenPrefix: "lin_oauth", sealer, accounts: () => [account], consent: true, tokenTtlMs: TTL_MS, memory };
    const before = new StandInOAuth(options);
    const revoked = before.mintGrant(account);
    const used = before.mintGrant(account);
    const post = async (oauth: StandInOAuth, path: string, body: Record<string, string>) =>
      (await oauth.serve(new Request(`http://stand-in.test${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body) }), path, undefined))!;
    expect((await post(before, "/oauth/revoke", { token: revoked.access_token })).status).toBe(200);
    expect((await post(before, "/oauth/token", { grant_type: "refresh_token", refresh_token: used.refresh_token! })).status).toBe(200);

    // The day turns and the app mounts its stand-ins anew, with the same memory.
    const after = new StandInOAuth(options);
    expect(await after.inspect(`Bearer ${revoked.access_token}`)).toEqual({ ok: false, reason: "revoked" });
    const replay = await post(after, "/oauth/token", { grant_type: "refresh_token", refresh_token: used.refresh_token! });
    expect([replay.status, (await replay.json()).error]).toEqual([400, "invalid_grant"]);
    // Without it, the new mount would have forgotten both.
    const forgetful = new StandInOAuth({ ...options, memory: undefined });
    expect(await forgetful.inspect(`Bearer ${revoked.access_token}`)).toEqual({ ok: true, email: account });
  });
});

describe.each(backends)("stand-in OAuth memory in storage, on $name", (backend) => {
  let first: Awaited<ReturnType<typeof backend.open>>;
  let second: OpenDb;
  beforeAll(async () => {
    first = await backend.open();
    // Another instance: its own connection to the same database.
    second = await openDb(first.storage);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  const instance = (db: OpenDb) =>
    new StandInOAuth({ slug: "tracker", product: "Linear", tokenPrefix: "lin_oauth", sealer, accounts: () => [account], consent: true, tokenTtlMs: TTL_MS, memory: storedOAuthMemory(async () => db.db, "tracker") });
  const form = (body: Record<string, string>) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body) });
  const caller: StandInCaller = { signedIn: async () => account, callback: redirectUri, sameSite: true };
  async function codeFrom(oauth: StandInOAuth): Promise<string> {
    const res = await oauth.serve(
      new Request("http://app.test/stand-ins/tracker/oauth/authorize", form({
        redirect_uri: redirectUri,
        response_type: "code",
        state: "s",
        code_challenge: createHash("sha256").update(verifier).digest("base64url"),
        code_challenge_method: "S256",
        decision: "approve",
      })),
      "/oauth/authorize",
      caller,
    );
    return new URL(res!.headers.get("location")!).searchParams.get("code")!;
  }
  const redeem = async (oauth: StandInOAuth, code: string) =>
    (await oauth.serve(new Request("http://app.test/stand-ins/tracker/oauth/token", form({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier })), "/oauth/token", undefined))!;

  it("redeems a code once across instances, even when both are asked at the same moment", async () => {
    const a = instance(first);
    const b = instance(second);
    const code = await codeFrom(a);
    expect((await redeem(a, code)).status).toBe(200);
    const again = await redeem(b, code);
    expect([again.status, (await again.json()).error_description]).toEqual([400, "The code has already been used."]);

    for (let i = 0; i < 5; i++) {
      const raced = await codeFrom(b);
      const answers = await Promise.all([redeem(a, raced), redeem(b, raced), redeem(a, raced), redeem(b, raced)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
    }
  });

  it("revokes on every instance, and a refresh token replayed at another instance revokes its grant", async () => {
    const a = instance(first);
    const b = instance(second);
    const revoked = a.mintGrant(account);
    expect((await a.serve(new Request("http://app.test/oauth/revoke", form({ token: revoked.access_token })), "/oauth/revoke", undefined))!.status).toBe(200);
    expect(await b.inspect(`Bearer ${revoked.access_token}`)).toEqual({ ok: false, reason: "revoked" });

    const grant = a.mintGrant(account);
    const refresh = (oauth: StandInOAuth) => oauth.serve(new Request("http://app.test/oauth/token", form({ grant_type: "refresh_token", refresh_token: grant.refresh_token! })), "/oauth/token", undefined);
    expect((await refresh(a))!.status).toBe(200);
    const replay = (await refresh(b))!;
    expect([replay.status, (await replay.json()).error]).toEqual([400, "invalid_grant"]);
    expect(await a.inspect(`Bearer ${grant.access_token}`)).toEqual({ ok: false, reason: "revoked" });
  });
});

describe("the app's own stand-ins", () => {
  const appSealer = createSealer("stand-in-mount-test-key-".repeat(2));
  let storage: Awaited<ReturnType<(typeof backends)[number]["open"]>>;
  beforeAll(async () => {
    storage = await backends[0]!.open();
  });
  afterAll(async () => {
    await storage.close();
  });
  const mount = (env: Record<string, string> = {}) =>
    createStandIns({
      config: parseConfig({ SECRET_KEY: "stand-in-mount-test-key-".repeat(2), STAND_INS: "1", ...env }),
      sealer: () => appSealer,
      db: async () => storage.db,
    });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("issue tokens for STAND_IN_TOKEN_TTL_MS, or for each vendor's own lifetime without it", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse("2026-11-24T10:00:00Z"));
    const now = Date.now();
    const lifetime = (standIns: ReturnType<typeof mount>, slug: "tracker" | "coderepo" | "calls" | "support") => {
      const g = standIns.mintForConnect(slug, account)!;
      return g.expiresAt === null ? null : g.expiresAt! - now;
    };
    const own = mount();
    expect(["tracker", "coderepo", "calls", "support"].map((s) => lifetime(own, s as "tracker"))).toEqual([86_400_000, 8 * 3_600_000, 86_400_000, null]);
    expect(own.mintForConnect("tracker", account)!.refreshToken).toMatch(/^lin_oauth_rt_/);
    const short = mount({ STAND_IN_TOKEN_TTL_MS: "60000" });
    // Intercom's tokens never expire, whatever the setting.
    expect(["tracker", "coderepo", "calls", "support"].map((s) => lifetime(short, s as "tracker"))).toEqual([60_000, 60_000, 60_000, null]);
  });

  it("remember revoked grants and used refresh tokens when they are mounted anew as the day turns", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse("2026-11-24T10:00:00Z"));
    const standIns = mount();
    const served = await serveOnLoopback((request) => {
      const [, , slug = "", ...rest] = new URL(request.url).pathname.split("/");
      return standIns.serve(request, slug, `/${rest.join("/")}`);
    });
    const post = (path: string, body: Record<string, string>) =>
      fetch(`${served.url}/stand-ins/tracker${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body) });
    try {
      const revoked = standIns.mintForConnect("tracker", account)!;
      const used = standIns.mintForConnect("tracker", account)!;
      expect((await post("/oauth/revoke", { token: revoked.accessToken })).status).toBe(200);
      expect((await post("/oauth/token", { grant_type: "refresh_token", refresh_token: used.refreshToken! })).status).toBe(200);
      const before = standIns.all().tracker;

      // Noon UTC: the tenant's day turns and every stand-in is mounted for the new day.
      vi.setSystemTime(Date.parse("2026-11-24T12:30:00Z"));
      expect(standIns.all().tracker).not.toBe(before);
      expect(await standIns.all().tracker.oauth.inspect(`Bearer ${revoked.accessToken}`)).toEqual({ ok: false, reason: "revoked" });
      const replay = await post("/oauth/token", { grant_type: "refresh_token", refresh_token: used.refreshToken! });
      expect([replay.status, (await replay.json()).error]).toEqual([400, "invalid_grant"]);
      // A grant nobody revoked still works on the new day.
      expect(await standIns.all().tracker.oauth.inspect(`Bearer ${standIns.mintForConnect("tracker", account)!.accessToken}`)).toEqual({ ok: true, email: account });
    } finally {
      await served.close();
    }
  });
});

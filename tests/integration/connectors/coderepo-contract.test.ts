import fs from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_ADMIN_EMAIL, DEMO_CSM_EMAIL, generateTenant, type Tenant } from "@/demo/tenant";
import { ApiError } from "@/lib/contract/errors";
import { coderepoConnector, listRepos } from "@/lib/connectors/coderepo";
import { githubRateLimit } from "@/lib/connectors/coderepo/client";
import { createCoderepoStandIn, type CoderepoStandIn, type CoderepoStandInOptions } from "@/lib/connectors/coderepo/stand-in";
import { toApiError } from "@/lib/connectors/errors";
import type { UpstreamOptions } from "@/lib/connectors/http";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import type { StandInCaller } from "@/lib/connectors/stand-in/oauth";
import { createSealer } from "@/lib/crypto/secrets";
import { OpenApiDescription } from "./stand-in-openapi";
import { upstreamFailure } from "./upstream-failure";

// The GitHub stand-in judged by what GitHub publishes: every answer the service reads is checked
// against GitHub's own OpenAPI description (the @octokit/openapi package), and GitHub's official
// SDK, @octokit/rest, reads the demo data through it. Tokens are a GitHub App's user tokens, and
// its rate limits are answered the way GitHub answers them and read the way GitHub documents.

const github = new OpenApiDescription(
  JSON.parse(fs.readFileSync(path.resolve("node_modules/@octokit/openapi/generated/api.github.com.json"), "utf8")) as unknown,
  "https://api.github.com/openapi",
);

const sealer = createSealer("test-key-".repeat(4));
const tenant: Tenant = generateTenant();
// The stand-in's clock runs with the real one (the client reads GitHub's reset against the real
// clock), moved on by whatever a test's sleep waits instead of waiting it.
const clock = {
  skew: 0,
  get now(): number {
    return Date.now() + this.skew;
  },
};

/** A stand-in of its own over loopback, mounted under a prefix as the app mounts it. */
async function serve(options: CoderepoStandInOptions = {}): Promise<{ standIn: CoderepoStandIn; served: Served; base: string }> {
  const standIn = createCoderepoStandIn({ tenant, sealer, now: () => clock.now }, options);
  const prefix = "/stand-ins/coderepo";
  const caller: StandInCaller = { signedIn: async () => DEMO_CSM_EMAIL, callback: "http://app.test/connections/coderepo/callback", sameSite: true };
  const served = await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname.slice(prefix.length), caller));
  return { standIn, served, base: `${served.url}${prefix}` };
}

let main: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  main = await serve();
});
afterAll(async () => {
  await main.served.close();
});
beforeEach(() => {
  clock.skew = 0;
  main.standIn.faults.clear();
});

const bearer = (standIn: CoderepoStandIn, email: string) => ({ authorization: `Bearer ${standIn.oauth.mintGrant(email).access_token}` });

function expectConforms(result: { ok: boolean; errors: string[] }): void {
  expect(result.errors).toEqual([]);
  expect(result.ok).toBe(true);
}

/** The tenant's view of what a person should see, newest push first. */
function expectedFor(email: string): string[] {
  return tenant.repos
    .filter((r) => r.visibleTo.includes(email))
    .sort((a, b) => Date.parse(b.pushedAt) - Date.parse(a.pushedAt))
    .map((r) => r.nameWithOwner);
}

/** GitHub's rate-limit headers, each checked against the description's header components. */
function expectRateHeaders(res: Response): void {
  expectConforms(github.header("x-rate-limit-limit", res.headers.get("x-ratelimit-limit")));
  expectConforms(github.header("x-rate-limit-remaining", res.headers.get("x-ratelimit-remaining")));
  expectConforms(github.header("x-rate-limit-reset", res.headers.get("x-ratelimit-reset")));
  expect(res.headers.get("x-ratelimit-used")).toMatch(/^\d+$/);
  expect(res.headers.get("x-ratelimit-resource")).toBe("core");
}

/** RFC 8288 as GitHub writes it: `<url>; rel="next", <url>; rel="last"`. */
const LINK = /^<[^<>\s]+>; rel="(?:next|last|prev|first)"(?:, <[^<>\s]+>; rel="(?:next|last|prev|first)")*$/;

describe("the stand-in's answers validate against GitHub's published OpenAPI description", () => {
  it("GET /user is a private-user, with the rate-limit headers", async () => {
    const res = await fetch(`${main.base}/user`, { headers: bearer(main.standIn, DEMO_CSM_EMAIL) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expectConforms(github.body("get", "/user", 200, body));
    expect(body).toMatchObject({ login: "casey-morgan", name: "Casey Morgan", user_view_type: "private", url: `${main.base}/users/casey-morgan` });
    expectRateHeaders(res);
  });

  it("every page of GET /user/repos is a list of repositories, linked with GitHub's Link header", async () => {
    const auth = bearer(main.standIn, DEMO_ADMIN_EMAIL);
    let next: string | null = `${main.base}/user/repos?sort=pushed&direction=desc&per_page=4&page=1`;
    const names: string[] = [];
    let pages = 0;
    while (next) {
      const res: Response = await fetch(next, { headers: auth });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { full_name: string; url: string }[];
      expectConforms(github.body("get", "/user/repos", 200, body));
      expect(github.response("get", "/user/repos", 200)?.headers).toHaveProperty("Link");
      const link = res.headers.get("link");
      if (link !== null) {
        expectConforms(github.header("link", link));
        expect(link).toMatch(LINK);
      }
      expectRateHeaders(res);
      names.push(...body.map((r) => r.full_name));
      expect(body[0]?.url).toBe(`${main.base}/repos/${body[0]?.full_name}`);
      next = /<([^>]+)>; rel="next"/.exec(link ?? "")?.[1] ?? null;
      pages++;
    }
    expect(pages).toBe(Math.ceil(expectedFor(DEMO_ADMIN_EMAIL).length / 4));
    expect(names).toEqual(expectedFor(DEMO_ADMIN_EMAIL));
  });

  it("errors: 401 without a token and with a bad one, 422 for a bad parameter, 403 at the rate limit", async () => {
    const none = await fetch(`${main.base}/user`);
    expect(none.status).toBe(401);
    const noneBody = await none.json();
    expectConforms(github.body("get", "/user", 401, noneBody));
    expect(noneBody).toMatchObject({ message: "Requires authentication" });

    const bad = await fetch(`${main.base}/user/repos`, { headers: { authorization: "Bearer ghu_forged.token" } });
    expect(bad.status).toBe(401);
    expectConforms(github.body("get", "/user/repos", 401, await bad.json()));

    const invalid = await fetch(`${main.base}/user/repos?sort=stars`, { headers: bearer(main.standIn, DEMO_CSM_EMAIL) });
    expect(invalid.status).toBe(422);
    expectConforms(github.body("get", "/user/repos", 422, await invalid.json()));

    const limited = await serve({ rateLimit: 1 });
    try {
      const auth = bearer(limited.standIn, DEMO_CSM_EMAIL);
      expect((await fetch(`${limited.base}/user/repos`, { headers: auth })).status).toBe(200);
      const refused = await fetch(`${limited.base}/user/repos`, { headers: auth });
      expect(refused.status).toBe(403);
      const body = await refused.json();
      expectConforms(github.body("get", "/user/repos", 403, body));
      expect(body).toMatchObject({ message: expect.stringMatching(/^API rate limit exceeded for user ID \d+\.$/), documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\//) });
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expectRateHeaders(refused);
    } finally {
      await limited.served.close();
    }
  });
});

describe("GitHub's own SDK, @octokit/rest, against the stand-in", () => {
  const octokitAs = (email: string) => new Octokit({ auth: main.standIn.oauth.mintGrant(email).access_token, baseUrl: main.base, userAgent: "dashboards-contract-test" });

  it("users.getAuthenticated names the signed-in account", async () => {
    const { data, status } = await octokitAs(DEMO_CSM_EMAIL).users.getAuthenticated();
    expect(status).toBe(200);
    expect(data).toMatchObject({ login: "casey-morgan", name: "Casey Morgan", email: DEMO_CSM_EMAIL, type: "User" });
  });

  it("paginate(repos.listForAuthenticatedUser) follows the Link header through every page", async () => {
    const octokit = octokitAs(DEMO_ADMIN_EMAIL);
    const repos = await octokit.paginate(octokit.rest.repos.listForAuthenticatedUser, { sort: "pushed", direction: "desc", per_page: 3 });
    expect(repos.map((r) => r.full_name)).toEqual(expectedFor(DEMO_ADMIN_EMAIL));
    const requests = main.standIn.faults.seen.filter((s) => s.path === "/user/repos");
    expect(requests).toHaveLength(Math.ceil(expectedFor(DEMO_ADMIN_EMAIL).length / 3));
    expect(requests.every((r) => r.authScheme?.toLowerCase() === "token")).toBe(true);
  });

  it("sees a refused token as GitHub's 401", async () => {
    const octokit = new Octokit({ auth: "ghu_forged.token", baseUrl: main.base });
    await expect(octokit.users.getAuthenticated()).rejects.toMatchObject({ status: 401 });
  });
});

describe("GitHub App user tokens", () => {
  it("are ghu_ access tokens with ghr_ refresh tokens, eight hours and six months", async () => {
    const grant = main.standIn.oauth.mintGrant(DEMO_CSM_EMAIL);
    expect(grant.access_token).toMatch(/^ghu_/);
    expect(grant.refresh_token).toMatch(/^ghr_/);
    expect(grant).toMatchObject({ expires_in: 28_800, refresh_token_expires_in: 15_811_200 });

    const renewed = await fetch(`${main.base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: grant.refresh_token ?? "", client_id: "Iv1.stand-in", client_secret: "x" }),
    });
    expect(renewed.status).toBe(200);
    const pair = (await renewed.json()) as Record<string, unknown>;
    expect(pair).toMatchObject({ access_token: expect.stringMatching(/^ghu_/), refresh_token: expect.stringMatching(/^ghr_/), expires_in: 28_800, refresh_token_expires_in: 15_811_200 });
    expect((await fetch(`${main.base}/user`, { headers: { authorization: `Bearer ${String(pair.access_token)}` } })).status).toBe(200);
  });

  it("the code exchange answers the same pair and names no OAuth scope, as a GitHub App does", async () => {
    const verifier = "v".repeat(43);
    const redirect = "http://app.test/connections/coderepo/callback";
    const approved = await fetch(`${main.base}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        redirect_uri: redirect,
        response_type: "code",
        state: "s",
        scope: "repo read:user",
        code_challenge: createHash("sha256").update(verifier).digest("base64url"),
        code_challenge_method: "S256",
        decision: "approve",
      }),
    });
    const code = new URL(approved.headers.get("location") ?? "").searchParams.get("code") ?? "";
    const res = await fetch(`${main.base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirect, code_verifier: verifier }),
    });
    expect(await res.json()).toMatchObject({ access_token: expect.stringMatching(/^ghu_/), refresh_token: expect.stringMatching(/^ghr_/), refresh_token_expires_in: 15_811_200, scope: "" });
  });

  it("the old prefixes are not GitHub App tokens: a gho_ token is refused", async () => {
    const res = await fetch(`${main.base}/user`, { headers: { authorization: `Bearer gho_${main.standIn.oauth.mint(DEMO_CSM_EMAIL).slice(4)}` } });
    expect(res.status).toBe(401);
  });
});

describe("GitHub's rate limits, read the way GitHub documents them", () => {
  const as = (s: { standIn: CoderepoStandIn; base: string }, extra: Partial<UpstreamOptions> = {}): UpstreamOptions => ({
    baseUrl: s.base,
    authorization: coderepoConnector.authorization(s.standIn.oauth.mintGrant(DEMO_CSM_EMAIL).access_token),
    timeoutMs: 5_000,
    ...extra,
  });

  it("counts every request in the headers", async () => {
    const s = await serve({ rateLimit: 10 });
    try {
      const auth = bearer(s.standIn, DEMO_CSM_EMAIL);
      const first = await fetch(`${s.base}/user`, { headers: auth });
      const second = await fetch(`${s.base}/user`, { headers: auth });
      expect([first.headers.get("x-ratelimit-remaining"), second.headers.get("x-ratelimit-remaining")]).toEqual(["9", "8"]);
      expect([first.headers.get("x-ratelimit-used"), second.headers.get("x-ratelimit-used")]).toEqual(["1", "2"]);
      expect(first.headers.get("x-ratelimit-reset")).toBe(second.headers.get("x-ratelimit-reset"));
    } finally {
      await s.served.close();
    }
  });

  it.each([403, 429] as const)("waits out a primary limit (%i) whose reset is near, then reads on", async (status) => {
    const s = await serve({ rateLimit: 1, rateWindowMs: 3_000, rateLimitStatus: status });
    try {
      const waits: number[] = [];
      // Waiting moves the stand-in's clock, so its window resets as GitHub's would.
      const up = as(s, { sleep: async (ms) => void (waits.push(ms), (clock.skew += ms)) });
      expect((await coderepoConnector.probe(up)).summary).toBe("Connected to GitHub as casey-morgan");
      const body = await listRepos(up);
      expect(body.repos.map((r) => r.nameWithOwner)).toEqual(expectedFor(DEMO_CSM_EMAIL));
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThanOrEqual(1_000);
      expect(waits[0]).toBeLessThanOrEqual(4_000);
      expect(s.standIn.faults.seen.map((r) => r.path)).toEqual(["/user", "/user/repos", "/user/repos"]);
    } finally {
      await s.served.close();
    }
  });

  it("fails as rate_limited when the reset is far off, and the API answers 503 upstream_rate_limited with Retry-After", async () => {
    const s = await serve({ rateLimit: 1 });
    try {
      const waits: number[] = [];
      const up = as(s, { sleep: async (ms) => void waits.push(ms) });
      await listRepos(up);
      const err = await upstreamFailure(listRepos(up));
      expect(err).toMatchObject({ kind: "rate_limited", status: 403 });
      expect(waits).toEqual([]);
      expect(err.retryAfterMs).toBeGreaterThan(3_500_000);
      expect(s.standIn.faults.seen.filter((r) => r.path === "/user/repos")).toHaveLength(2);

      const api = toApiError("coderepo", err);
      expect(api).toBeInstanceOf(ApiError);
      expect(api).toMatchObject({ code: "upstream_rate_limited", status: 503 });
      const retryAfter = Number((api as ApiError).headers?.["retry-after"]);
      expect(retryAfter).toBeGreaterThan(3_500);
      expect(retryAfter).toBeLessThanOrEqual(3_601);
    } finally {
      await s.served.close();
    }
  });

  it("waits out a secondary limit's Retry-After", async () => {
    const waits: number[] = [];
    main.standIn.throttleNext({ retryAfter: 2 });
    const body = await listRepos(as(main, { sleep: async (ms) => void waits.push(ms) }));
    expect(waits).toEqual([2_000]);
    expect(body.repos.map((r) => r.nameWithOwner)).toEqual(expectedFor(DEMO_CSM_EMAIL));
  });

  it("takes a 429 that names no wait as a secondary limit asking for a minute", async () => {
    main.standIn.throttleNext({ status: 429 });
    const err = await upstreamFailure(listRepos(as(main)));
    expect(err).toMatchObject({ kind: "rate_limited", status: 429, retryAfterMs: 60_000 });
  });

  it("still takes a 403 without rate-limit signs as a refusal", async () => {
    const plain = new Response("{}", { status: 403 });
    expect(githubRateLimit(plain, Date.now())).toBeNull();
    main.standIn.faults.next({ status: 403 });
    expect((await upstreamFailure(listRepos(as(main)))).kind).toBe("forbidden");
  });

  it("reads 503 as an overloaded server, as for any vendor", () => {
    expect(githubRateLimit(new Response("", { status: 503, headers: { "retry-after": "2" } }), 0)).toEqual({ waitMs: 2_000, kind: "server" });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_ADMIN_EMAIL, DEMO_CSM_EMAIL, DEMO_MEMBER_EMAIL, generateTenant, type Tenant } from "@/demo/tenant";
import { endpointById } from "@/lib/contract/endpoints";
import { createSealer } from "@/lib/crypto/secrets";
import { UpstreamError, type UpstreamOptions } from "@/lib/connectors/http";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { Hold } from "@/lib/connectors/stand-in/faults";
import type { StandIn } from "@/lib/connectors/types";
import { coderepoConnector, listRepos } from "@/lib/connectors/coderepo";
import { listUserRepos, nextLinkOf, sameOriginNext } from "@/lib/connectors/coderepo/client";
import { githubLogins } from "@/lib/connectors/coderepo/stand-in";
import { upstreamFailure } from "./upstream-failure";

const reposResponse = endpointById("vendors.coderepo.repos").response;

let tenant: Tenant;
let standIn: StandIn;
let served: Served;

beforeAll(async () => {
  tenant = generateTenant();
  standIn = coderepoConnector.createStandIn({ tenant, sealer: createSealer("test-key-".repeat(4)) });
  served = await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname));
});
afterAll(async () => {
  await served.close();
});
beforeEach(() => standIn.faults.clear());

function as(email: string, extra: Partial<UpstreamOptions> = {}): UpstreamOptions {
  return { baseUrl: served.url, authorization: coderepoConnector.authorization(standIn.oauth.mint(email)), timeoutMs: 5_000, ...extra };
}

/** The tenant's view of what a person should see, newest push first. */
function expectedFor(email: string): string[] {
  return tenant.repos
    .filter((r) => r.visibleTo.includes(email))
    .sort((a, b) => Date.parse(b.pushedAt) - Date.parse(a.pushedAt))
    .map((r) => r.nameWithOwner);
}

const repoCalls = () => standIn.faults.seen.filter((s) => s.path === "/user/repos");

describe("listRepos against the stand-in", () => {
  it("returns the CSM's repositories, personal one included, newest push first, in the contract's shape", async () => {
    const body = await listRepos(as(DEMO_CSM_EMAIL));
    expect(reposResponse.parse(body)).toEqual(body);
    const names = body.repos.map((r) => r.nameWithOwner);
    expect(names).toEqual(expectedFor(DEMO_CSM_EMAIL));
    expect(names).toContain("casey-morgan/qbr-templates");
    expect(names).not.toContain("demo-edu/infra");
    const design = body.repos.find((r) => r.nameWithOwner === "demo-edu/design-system");
    expect(design).toEqual({ nameWithOwner: "demo-edu/design-system", url: "https://code.demo.test/demo-edu/design-system", isPrivate: false });
  });

  it("returns every organisation repository for the admin and not the CSM's personal one", async () => {
    const body = reposResponse.parse(await listRepos(as(DEMO_ADMIN_EMAIL)));
    const names = body.repos.map((r) => r.nameWithOwner);
    expect(names).toEqual(expectedFor(DEMO_ADMIN_EMAIL));
    expect(names.length).toBe(tenant.repos.filter((r) => r.owner === "demo-edu").length);
    expect(names).not.toContain("casey-morgan/qbr-templates");
  });

  it("returns an empty list for a person with no repositories", async () => {
    expect(await listRepos(as(DEMO_MEMBER_EMAIL))).toEqual({ repos: [] });
  });

  it("sends the bearer token and GitHub's media type, version and list parameters", async () => {
    const sent: { url: URL; headers: Headers }[] = [];
    const recording: typeof fetch = (input, init) => {
      sent.push({ url: new URL(String(input)), headers: new Headers(init?.headers) });
      return fetch(input, init);
    };
    const token = standIn.oauth.mint(DEMO_CSM_EMAIL);
    await listRepos({ ...as(DEMO_CSM_EMAIL), fetch: recording });
    expect(sent).toHaveLength(1);
    const [first] = sent;
    expect(first?.headers.get("authorization")).toBe(`Bearer ${token}`);
    // A GitHub App's user token, not an OAuth app's (gho_).
    expect(token.startsWith("ghu_")).toBe(true);
    expect(first?.headers.get("accept")).toBe("application/vnd.github+json");
    expect(first?.headers.get("x-github-api-version")).toBe("2022-11-28");
    const q = first?.url.searchParams;
    expect(q?.get("sort")).toBe("pushed");
    expect(q?.get("direction")).toBe("desc");
    expect(q?.get("per_page")).toBe("100");
    expect(q?.get("affiliation")).toBe("owner,collaborator,organization_member");
  });
});

describe("paging", () => {
  it("follows rel=next across several pages and returns the same list as one page", async () => {
    const whole = await listRepos(as(DEMO_ADMIN_EMAIL));
    standIn.faults.clear();
    const paged = await listRepos(as(DEMO_ADMIN_EMAIL), { perPage: 3 });
    const expectedPages = Math.ceil(expectedFor(DEMO_ADMIN_EMAIL).length / 3);
    expect(expectedPages).toBeGreaterThanOrEqual(3);
    expect(repoCalls()).toHaveLength(expectedPages);
    expect(paged).toEqual(whole);
  });

  it("pages under a path prefix, as the app mounts the stand-in at /stand-ins/coderepo", async () => {
    const prefix = "/stand-ins/coderepo";
    const mounted = await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname.slice(prefix.length)));
    try {
      const up = { ...as(DEMO_ADMIN_EMAIL), baseUrl: `${mounted.url}${prefix}` };
      const body = await listRepos(up, { perPage: 4 });
      expect(body.repos.map((r) => r.nameWithOwner)).toEqual(expectedFor(DEMO_ADMIN_EMAIL));
      expect(repoCalls()).toHaveLength(Math.ceil(expectedFor(DEMO_ADMIN_EMAIL).length / 4));
    } finally {
      await mounted.close();
    }
  });

  it("the stand-in answers GitHub's Link header, with no next on the last page", async () => {
    const auth = { authorization: `Bearer ${standIn.oauth.mint(DEMO_ADMIN_EMAIL)}` };
    const first = await fetch(`${served.url}/user/repos?sort=pushed&per_page=4&page=1`, { headers: auth });
    const link = first.headers.get("link") ?? "";
    expect(link).toMatch(/<[^>]*[?&]page=2[^>]*>; rel="next"/);
    expect(link).toMatch(/rel="last"/);
    expect(((await first.json()) as unknown[]).length).toBe(4);

    const last = Math.ceil(expectedFor(DEMO_ADMIN_EMAIL).length / 4);
    const end = await fetch(`${served.url}/user/repos?sort=pushed&per_page=4&page=${last}`, { headers: auth });
    expect(end.headers.get("link") ?? "").not.toMatch(/rel="next"/);
    expect(end.headers.get("link") ?? "").toMatch(/rel="prev"/);
  });

  it("the stand-in serves GitHub's repository fields", async () => {
    const res = await fetch(`${served.url}/user/repos?sort=pushed&per_page=1`, {
      headers: { authorization: `Bearer ${standIn.oauth.mint(DEMO_CSM_EMAIL)}` },
    });
    const [item] = (await res.json()) as Record<string, unknown>[];
    expect(item).toMatchObject({
      full_name: expect.stringMatching(/^[^/]+\/[^/]+$/),
      owner: { login: expect.any(String) },
      html_url: expect.stringMatching(/^https:\/\//),
      private: expect.any(Boolean),
      pushed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      visibility: expect.stringMatching(/^(private|public)$/),
    });
    expect(typeof item?.id).toBe("number");
  });

  it("sorts again after paging, even when the pages disagree", async () => {
    const page = (items: object[], next?: string): Response =>
      new Response(JSON.stringify(items), { headers: { "content-type": "application/json", ...(next ? { link: `<${next}>; rel="next"` } : {}) } });
    const gh = (id: number, name: string, pushed: string) => ({
      id,
      name,
      full_name: `o/${name}`,
      owner: { login: "o" },
      html_url: `https://github.com/o/${name}`,
      private: true,
      pushed_at: pushed,
      description: null,
    });
    const fake: typeof fetch = async (input) => {
      const url = new URL(String(input));
      if (url.searchParams.get("page") === "1") return page([gh(1, "a", "2026-11-01T00:00:00Z")], "https://api.example.test/user/repos?page=2");
      return page([gh(2, "b", "2026-11-05T00:00:00Z"), gh(1, "a", "2026-11-01T00:00:00Z")]);
    };
    const out = await listRepos({ baseUrl: "https://api.example.test", fetch: fake });
    expect(out.repos.map((r) => r.nameWithOwner)).toEqual(["o/b", "o/a"]);
  });

  it("refuses a next link on another origin and never sends the token there", async () => {
    const asked: string[] = [];
    const fake: typeof fetch = async (input) => {
      asked.push(String(input));
      return new Response("[]", { headers: { "content-type": "application/json", link: '<https://elsewhere.test/user/repos?page=2>; rel="next"' } });
    };
    const err = await upstreamFailure(listRepos({ baseUrl: "https://api.example.test", authorization: "Bearer ghu_x", fetch: fake }));
    expect(err.kind).toBe("bad_response");
    expect(asked).toHaveLength(1);
    expect(asked.some((u) => u.includes("elsewhere"))).toBe(false);
  });

  it("stops at the page bound when an upstream never stops paging", async () => {
    let calls = 0;
    const fake: typeof fetch = async (input) => {
      calls++;
      const n = Number(new URL(String(input)).searchParams.get("page"));
      return new Response("[]", { headers: { "content-type": "application/json", link: `</user/repos?page=${n + 1}>; rel="next"` } });
    };
    await listUserRepos({ baseUrl: "https://api.example.test", fetch: fake }, { maxPages: 5 });
    expect(calls).toBe(5);
  });

  it("parses Link headers and resolves links against the base URL", () => {
    expect(nextLinkOf('<https://api.github.com/user/repos?page=3>; rel="next", <https://api.github.com/user/repos?page=9>; rel="last"')).toBe(
      "https://api.github.com/user/repos?page=3",
    );
    expect(nextLinkOf('<https://a.test/x?page=1>; rel="prev", <https://a.test/x?page=1>; rel="first"')).toBeNull();
    expect(nextLinkOf(null)).toBeNull();
    expect(sameOriginNext("/api/v3/user/repos?page=2", "https://ghe.test/api/v3").href).toBe("https://ghe.test/api/v3/user/repos?page=2");
    expect(() => sameOriginNext("http://ghe.test/user/repos", "https://ghe.test")).toThrow(UpstreamError);
  });
});

describe("upstream failures", () => {
  it("an invalid token is unauthorized, and the stand-in answers GitHub's error body", async () => {
    const err = await upstreamFailure(listRepos({ baseUrl: served.url, authorization: "Bearer ghu_forged.token" }));
    expect(err.kind).toBe("unauthorized");
    expect(err.status).toBe(401);

    const res = await fetch(`${served.url}/user/repos`, { headers: { authorization: "Bearer ghu_forged.token" } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: "Bad credentials", documentation_url: expect.any(String) });
  });

  it("a token of another vendor's stand-in is refused", async () => {
    const err = await upstreamFailure(listRepos({ baseUrl: served.url, authorization: "Bearer lin_oauth_abc.def" }));
    expect(err.kind).toBe("unauthorized");
  });

  it("waits out a 429 Retry-After and then succeeds", async () => {
    const waits: number[] = [];
    standIn.faults.next({ status: 429, retryAfter: 3, pathIncludes: "/user/repos" });
    const body = await listRepos(as(DEMO_CSM_EMAIL, { sleep: async (ms) => void waits.push(ms) }));
    expect(waits).toEqual([3_000]);
    expect(repoCalls()).toHaveLength(2);
    expect(body.repos.map((r) => r.nameWithOwner)).toEqual(expectedFor(DEMO_CSM_EMAIL));
  });

  it("retries inside a later page too, keeping the pages already read", async () => {
    const waits: number[] = [];
    // A fault without a status lets its request through, so the 429 lands on the second page.
    standIn.faults.next({ pathIncludes: "/user/repos" }, { status: 429, retryAfter: 1, pathIncludes: "/user/repos" });
    const body = await listRepos(as(DEMO_ADMIN_EMAIL, { sleep: async (ms) => void waits.push(ms) }), { perPage: 3 });
    expect(waits).toEqual([1_000]);
    expect(repoCalls()).toHaveLength(Math.ceil(expectedFor(DEMO_ADMIN_EMAIL).length / 3) + 1);
    expect(body.repos.map((r) => r.nameWithOwner)).toEqual(expectedFor(DEMO_ADMIN_EMAIL));
  });

  it("gives up as rate_limited once the retries are spent", async () => {
    const waits: number[] = [];
    standIn.faults.next(...Array.from({ length: 3 }, () => ({ status: 429 as const, retryAfter: 1, pathIncludes: "/user/repos" })));
    const err = await upstreamFailure(listRepos(as(DEMO_CSM_EMAIL, { maxRetries: 2, sleep: async (ms) => void waits.push(ms) })));
    expect(err.kind).toBe("rate_limited");
    expect(waits).toEqual([1_000, 1_000]);
    expect(repoCalls()).toHaveLength(3);
  });

  it("a 500 is a server failure", async () => {
    standIn.faults.next({ status: 500 });
    const err = await upstreamFailure(listRepos(as(DEMO_CSM_EMAIL)));
    expect(err.kind).toBe("server");
    expect(err.status).toBe(500);
  });

  it("an answer slower than timeoutMs is a timeout", async () => {
    const hold = new Hold();
    standIn.faults.next({ hold });
    try {
      const err = await upstreamFailure(listRepos(as(DEMO_CSM_EMAIL, { timeoutMs: 50 })));
      expect(err.kind).toBe("timeout");
    } finally {
      hold.release();
    }
  });
});

describe("probe", () => {
  it("reads /user once and reports the login, and no OAuth scopes for a GitHub App's user token", async () => {
    const result = await coderepoConnector.probe(as(DEMO_CSM_EMAIL));
    expect(result.summary).toBe("Connected to GitHub as casey-morgan");
    expect(result.details).toEqual([
      { label: "Login", value: "casey-morgan" },
      { label: "Name", value: "Casey Morgan" },
    ]);
    expect(standIn.faults.seen.map((s) => `${s.method} ${s.path}`)).toEqual(["GET /user"]);
  });

  it("names each person by their own login", async () => {
    const logins = githubLogins(tenant);
    const admin = await coderepoConnector.probe(as(DEMO_ADMIN_EMAIL));
    expect(admin.summary).toBe(`Connected to GitHub as ${logins.get(DEMO_ADMIN_EMAIL)}`);
    expect(logins.get(DEMO_ADMIN_EMAIL)).toBe("avery-admin");
    expect(new Set(logins.values()).size).toBe(logins.size);
  });

  it("fails as unauthorized with a bad token", async () => {
    const err = await upstreamFailure(coderepoConnector.probe({ baseUrl: served.url, authorization: "Bearer nope" }));
    expect(err.kind).toBe("unauthorized");
  });

  it("describes the connector as GitHub with a user credential", () => {
    expect(coderepoConnector).toMatchObject({ slug: "coderepo", title: "Code hosting", product: "GitHub", credential: "user", scope: "repo read:user", tokenAuth: "body" });
    expect(coderepoConnector.authorization("ghu_abc")).toBe("Bearer ghu_abc");
  });
});

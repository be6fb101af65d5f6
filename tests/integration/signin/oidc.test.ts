import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseConfig, type Config } from "@/lib/config";
import { FLOW_COOKIE, newOidcDiscovery, oidcCallback, oidcStart, type OidcDeps } from "@/lib/signin/oidc";
import { SESSION_COOKIE, startSession, userForToken } from "@/lib/auth/session";
import { sha256Hex } from "@/lib/auth/tokens";
import { upsertUser, userIdByEmail } from "@/lib/auth/users";
import { backends } from "../support/backends";

// The whole authorization-code flow over real HTTP against a real OpenID provider on loopback:
// the stand-in the end-to-end tests use, started in-process.

interface ProviderHandle {
  issuer: string;
  setGroups(email: string, groups: string[]): void;
  close(): Promise<void>;
}
interface ProviderAccount {
  email: string;
  name: string;
  groups: string[];
  emailVerified?: boolean;
}
interface ProviderModule {
  CLIENT_ID: string;
  CLIENT_SECRET: string;
  defaultAccounts: ProviderAccount[];
  startProvider(o: { port: number; redirectUri: string; accounts?: ProviderAccount[]; claimsInIdToken?: boolean }): Promise<ProviderHandle>;
}

// Plain JS without declarations: imported through a URL so the typed shape above applies.
const providerModuleUrl = new URL("../../../e2e/support/oidc-provider.mjs", import.meta.url).href;
const loadProvider = () => import(/* @vite-ignore */ providerModuleUrl) as Promise<ProviderModule>;

const ADMIN = "oidc-admin@example.test";
const MEMBER = "oidc-member@example.test";
const NEWCOMER = "oidc-newcomer@example.test";
const UNVERIFIED = "oidc-unverified@example.test";
// A name that would read backwards and hide a zero-width space, and an email whose local part
// (the handle) would read as the admin's.
const TRICKY_NAME = "oidc-tricky@example.test";
const LOOKALIKE = "oidc-ad\u200bmin@example.test";
const FAILED = "/signin?error=oidc_failed";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function setCookies(res: Response): Map<string, { value: string; attrs: string }> {
  const out = new Map<string, { value: string; attrs: string }>();
  for (const line of res.headers.getSetCookie()) {
    const [pair = "", ...rest] = line.split(";");
    const eq = pair.indexOf("=");
    out.set(pair.slice(0, eq).trim(), { value: decodeURIComponent(pair.slice(eq + 1).trim()), attrs: rest.join(";").trim() });
  }
  return out;
}

/** The URLs fetched while the spy is on (mockRestore would clear them, hence the copy). */
function spyOnFetch() {
  const urls: string[] = [];
  const spy = vi.spyOn(globalThis, "fetch");
  return {
    urls,
    stop: () => {
      urls.push(...spy.mock.calls.map(([u]) => (u instanceof Request ? u.url : String(u))));
      spy.mockRestore();
    },
  };
}

/** The provider's cookies, by name; paths are ignored since every name is distinct. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(res: Response): void {
    for (const [name, { value, attrs }] of setCookies(res)) {
      if (/max-age=0\b/i.test(attrs) || /expires=Thu, 01 Jan 1970/i.test(attrs)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

describe.each(backends)("OIDC sign-in on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let provider: ProviderHandle;
  let mod: ProviderModule;
  let app: string;
  let deps: OidcDeps;

  function configFor(issuer: string, extra: Record<string, string> = {}): Config {
    return parseConfig({
      NODE_ENV: "test",
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: mod.CLIENT_ID,
      OIDC_CLIENT_SECRET: mod.CLIENT_SECRET,
      OIDC_ALLOW_HTTP: "1",
      SESSION_TTL_HOURS: "1",
      ...extra,
    });
  }

  beforeAll(async () => {
    mod = await loadProvider();
    h = await backend.open();
    app = `http://127.0.0.1:${await freePort()}`;
    provider = await mod.startProvider({
      port: await freePort(),
      redirectUri: `${app}/signin/callback`,
      accounts: [
        ...mod.defaultAccounts,
        { email: NEWCOMER, name: "New Comer", groups: ["admin"] },
        { email: UNVERIFIED, name: "Not Verified", groups: ["admin"], emailVerified: false },
        { email: TRICKY_NAME, name: "\u202enimdA\u200b CDIO\u2066", groups: [] },
        { email: LOOKALIKE, name: "OIDC Admin", groups: ["admin"] },
      ],
    });
    deps = { db: async () => h.db, config: configFor(provider.issuer), discovery: newOidcDiscovery() };
  });

  afterAll(async () => {
    await provider?.close();
    await h?.close();
  });

  /**
   * Browser stand-in: from the app's start redirect to the provider, through its login form, up
   * to the redirect back to our callback. Returns that callback URL and the flow cookie.
   */
  async function throughProvider(login: string, opts: { next?: string; deps?: OidcDeps; appOrigin?: string } = {}) {
    const d = opts.deps ?? deps;
    const origin = opts.appOrigin ?? app;
    const start = await oidcStart(new Request(`${origin}/signin/oidc?next=${encodeURIComponent(opts.next ?? "/after")}`), d);
    expect(start.status).toBe(302);
    const flowCookie = setCookies(start).get(FLOW_COOKIE)?.value;
    expect(flowCookie).toBeTruthy();
    const authorizationUrl = new URL(start.headers.get("location") ?? "");

    const jar = new CookieJar();
    const walk = async (url: URL, init: RequestInit = {}): Promise<{ callback?: URL; page?: { url: URL; html: string } }> => {
      let current = url;
      let request = init;
      for (let hops = 0; hops < 10; hops++) {
        const res = await fetch(current, {
          ...request,
          redirect: "manual",
          headers: { ...(request.headers as Record<string, string> | undefined), cookie: jar.header() },
        });
        jar.store(res);
        const location = res.headers.get("location");
        if (res.status >= 300 && res.status < 400 && location) {
          await res.body?.cancel();
          const nextUrl = new URL(location, current);
          if (nextUrl.href.startsWith(`${origin}/signin/callback`)) return { callback: nextUrl };
          current = nextUrl;
          request = {};
          continue;
        }
        return { page: { url: current, html: await res.text() } };
      }
      throw new Error("too many redirects at the provider");
    };

    const first = await walk(authorizationUrl);
    const form = first.page;
    if (!form) throw new Error("expected the provider's login form");
    const action = /<form method="post" action="([^"]+)"/.exec(form.html)?.[1];
    expect(action, form.html).toBeTruthy();
    const submitted = await walk(new URL(action ?? "", form.url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ login }).toString(),
    });
    if (!submitted.callback) throw new Error(`provider did not return to the app: ${submitted.page?.html.slice(0, 300)}`);
    return { callbackUrl: submitted.callback, flowCookie: flowCookie ?? "", authorizationUrl };
  }

  function callback(url: URL | string, cookies: Record<string, string>, d: OidcDeps = deps): Promise<Response> {
    const cookie = Object.entries(cookies)
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      .join("; ");
    return oidcCallback(new Request(url, { headers: cookie ? { cookie } : {} }), d);
  }

  async function signIn(login: string, extra: Record<string, string> = {}) {
    const { callbackUrl, flowCookie } = await throughProvider(login);
    const res = await callback(callbackUrl, { [FLOW_COOKIE]: flowCookie, ...extra });
    return { res, callbackUrl, flowCookie };
  }

  async function counts() {
    const users = await h.db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    const sessions = await h.db.selectFrom("sessions").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    return { users: Number(users.n), sessions: Number(sessions.n) };
  }

  it("starts with state, nonce, S256 PKCE and a Lax, HttpOnly flow cookie scoped to /signin", async () => {
    const res = await oidcStart(new Request(`${app}/signin/oidc?next=/x?y=1`), deps);
    expect(res.status).toBe(302);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.origin).toBe(provider.issuer);
    const p = location.searchParams;
    expect(p.get("response_type")).toBe("code");
    expect(p.get("client_id")).toBe(mod.CLIENT_ID);
    expect(p.get("redirect_uri")).toBe(`${app}/signin/callback`);
    expect(p.get("scope")).toBe("openid email profile");
    expect(p.get("code_challenge_method")).toBe("S256");
    expect(p.get("code_challenge")?.length).toBeGreaterThanOrEqual(43);
    expect(p.get("state")?.length).toBeGreaterThanOrEqual(22);
    expect(p.get("nonce")?.length).toBeGreaterThanOrEqual(22);

    const cookie = setCookies(res).get(FLOW_COOKIE);
    expect(cookie?.value.length).toBeGreaterThanOrEqual(43);
    expect(cookie?.attrs).toMatch(/Path=\/signin(;|$)/);
    expect(cookie?.attrs).toMatch(/HttpOnly/);
    expect(cookie?.attrs).toMatch(/SameSite=Lax/);
    expect(cookie?.attrs).toMatch(/Max-Age=600/);
    expect(cookie?.attrs).not.toMatch(/Secure/);

    // Only a hash of the cookie is stored; the verifier never leaves the server.
    const rows = await h.db.selectFrom("auth_flows").selectAll().where("state", "=", p.get("state") ?? "").execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id_hash).not.toBe(cookie?.value);
    expect(rows[0]?.next_path).toBe("/x?y=1");
    expect(JSON.stringify(Object.fromEntries(p))).not.toContain(rows[0]?.code_verifier ?? "-");
  });

  it("falls back to / for a next that leaves the site", async () => {
    const res = await oidcStart(new Request(`${app}/signin/oidc?next=//evil.example/`), deps);
    const state = new URL(res.headers.get("location") ?? "").searchParams.get("state") ?? "";
    const row = await h.db.selectFrom("auth_flows").select("next_path").where("state", "=", state).executeTakeFirst();
    expect(row?.next_path).toBe("/");
  });

  it("signs the admin in end to end with the provider's email, name and groups", async () => {
    const fetched = spyOnFetch();
    const { res } = await signIn(ADMIN).finally(fetched.stop);
    // This provider keeps scope claims out of the ID token, so they come from userinfo.
    expect(fetched.urls).toContain(`${provider.issuer}/me`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/after");
    const cookies = setCookies(res);
    expect(cookies.get(FLOW_COOKIE)?.attrs).toMatch(/Max-Age=0/);
    const session = cookies.get(SESSION_COOKIE);
    expect(session?.attrs).toMatch(/HttpOnly/);
    expect(session?.attrs).toMatch(/SameSite=Lax/);
    const user = await userForToken(h.db, session?.value);
    expect(user).toMatchObject({ email: ADMIN, name: "OIDC Admin", handle: "oidc-admin", groups: ["admin", "cx"] });
    expect(user?.permissions).toContain("crm.users.read");
  });

  it("gives the member account no groups", async () => {
    const { res } = await signIn(MEMBER);
    expect(res.status).toBe(303);
    const user = await userForToken(h.db, setCookies(res).get(SESSION_COOKIE)?.value);
    expect(user).toMatchObject({ email: MEMBER, groups: [] });
    expect(user?.permissions).toEqual(["crm.customers.read"]);
  });

  it("replaces groups at each sign-in with what the provider says now", async () => {
    try {
      provider.setGroups(MEMBER, ["cx"]);
      let user = await userForToken(h.db, setCookies((await signIn(MEMBER)).res).get(SESSION_COOKIE)?.value);
      expect(user?.groups).toEqual(["cx"]);
      provider.setGroups(MEMBER, []);
      user = await userForToken(h.db, setCookies((await signIn(MEMBER)).res).get(SESSION_COOKIE)?.value);
      expect(user?.groups).toEqual([]);
    } finally {
      provider.setGroups(MEMBER, []);
    }
  });

  it("rotates a session the browser already carried", async () => {
    const id = await upsertUser(h.db, { email: "planted@example.test", name: "Planted", groups: [] });
    const planted = await startSession(h.db, id, 60_000);
    const { res } = await signIn(MEMBER, { [SESSION_COOKIE]: planted.token });
    expect(res.status).toBe(303);
    expect(await userForToken(h.db, planted.token)).toBeNull();
    expect((await userForToken(h.db, setCookies(res).get(SESSION_COOKIE)?.value))?.email).toBe(MEMBER);
  });

  it("refuses a tampered state and creates nothing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const before = await counts();
      const { callbackUrl, flowCookie } = await throughProvider(NEWCOMER);
      const code = callbackUrl.searchParams.get("code") ?? "";
      expect(code).not.toBe("");
      callbackUrl.searchParams.set("state", `${callbackUrl.searchParams.get("state")}x`);
      const res = await callback(callbackUrl, { [FLOW_COOKIE]: flowCookie });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(FAILED);
      expect(setCookies(res).has(SESSION_COOKIE)).toBe(false);
      expect(setCookies(res).get(FLOW_COOKIE)?.attrs).toMatch(/Max-Age=0/);
      expect(await counts()).toEqual(before);
      expect(await userIdByEmail(h.db, NEWCOMER)).toBeNull();

      // One line, naming the failure, without the authorization code or the flow id.
      expect(warn).toHaveBeenCalledTimes(1);
      const line = String(warn.mock.calls[0]?.[0]);
      expect(line).toMatch(/^\[oidc\] sign-in failed/);
      expect(line).not.toContain(code);
      expect(line).not.toContain(flowCookie);

      // The flow was spent by the failed attempt: the untampered answer is refused too.
      callbackUrl.searchParams.set("state", callbackUrl.searchParams.get("state")?.slice(0, -1) ?? "");
      const retry = await callback(callbackUrl, { [FLOW_COOKIE]: flowCookie });
      expect(retry.headers.get("location")).toBe(FAILED);
      expect(await userIdByEmail(h.db, NEWCOMER)).toBeNull();
    } finally {
      warn.mockRestore();
    }
  });

  it("refuses a replayed callback: the flow is single use", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const { res, callbackUrl, flowCookie } = await signIn(ADMIN);
      expect(res.status).toBe(303);
      const spent = await h.db.selectFrom("auth_flows").select("id_hash").where("id_hash", "=", sha256Hex(flowCookie)).execute();
      expect(spent).toEqual([]);
      const before = await counts();
      const replay = await callback(callbackUrl, { [FLOW_COOKIE]: flowCookie });
      // Refused before the provider is asked again: the flow row is gone.
      expect(String(warn.mock.calls[0]?.[0])).toContain("already used");
      expect(replay.status).toBe(303);
      expect(replay.headers.get("location")).toBe(FAILED);
      expect(setCookies(replay).has(SESSION_COOKIE)).toBe(false);
      expect(await counts()).toEqual(before);
    } finally {
      warn.mockRestore();
    }
  });

  it("refuses a callback without the flow cookie, or with an unknown one", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const { callbackUrl, flowCookie } = await throughProvider(NEWCOMER);
      const missing = await callback(callbackUrl, {});
      expect(missing.headers.get("location")).toBe(FAILED);
      const unknown = await callback(callbackUrl, { [FLOW_COOKIE]: `${flowCookie}x` });
      expect(unknown.headers.get("location")).toBe(FAILED);
      expect(await userIdByEmail(h.db, NEWCOMER)).toBeNull();
    } finally {
      warn.mockRestore();
    }
  });

  it("refuses an expired flow", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const { callbackUrl, flowCookie } = await throughProvider(NEWCOMER);
      await h.db.updateTable("auth_flows").set({ expires_at: Date.now() - 1 }).execute();
      const res = await callback(callbackUrl, { [FLOW_COOKIE]: flowCookie });
      expect(res.headers.get("location")).toBe(FAILED);
      expect(await userIdByEmail(h.db, NEWCOMER)).toBeNull();
    } finally {
      warn.mockRestore();
    }
  });

  it("refuses the provider's error answer", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const start = await oidcStart(new Request(`${app}/signin/oidc`), deps);
      const state = new URL(start.headers.get("location") ?? "").searchParams.get("state") ?? "";
      const url = new URL(`${app}/signin/callback`);
      url.search = new URLSearchParams({ error: "access_denied", error_description: "no\nthanks", state, iss: provider.issuer }).toString();
      const res = await callback(url, { [FLOW_COOKIE]: setCookies(start).get(FLOW_COOKIE)?.value ?? "" });
      expect(res.headers.get("location")).toBe(FAILED);
      expect(String(warn.mock.calls[0]?.[0])).toContain("error=access_denied");
    } finally {
      warn.mockRestore();
    }
  });

  it("refuses an email the provider has not verified", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const { res } = await signIn(UNVERIFIED);
      expect(res.headers.get("location")).toBe(FAILED);
      expect(await userIdByEmail(h.db, UNVERIFIED)).toBeNull();
      expect(String(warn.mock.calls[0]?.[0])).toContain("not verified");
    } finally {
      warn.mockRestore();
    }
  });

  it("keeps the provider's name without bidirectional controls or zero-width characters", async () => {
    const { res } = await signIn(TRICKY_NAME);
    expect(res.status).toBe(303);
    const user = await userForToken(h.db, setCookies(res).get(SESSION_COOKIE)?.value);
    expect(user).toMatchObject({ email: TRICKY_NAME, name: "nimdA CDIO", handle: "oidc-tricky" });
  });

  it("refuses an email whose handle would carry a zero-width character, and creates no one", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const before = await counts();
      const { res } = await signIn(LOOKALIKE);
      expect(res.headers.get("location")).toBe(FAILED);
      expect(setCookies(res).has(SESSION_COOKIE)).toBe(false);
      expect(await counts()).toEqual(before);
      expect(String(warn.mock.calls[0]?.[0])).toContain("email claim contains U+200B, a zero-width character");
    } finally {
      warn.mockRestore();
    }
  });

  it("uses the public origin for the redirect_uri and marks cookies Secure behind https", async () => {
    const behindProxy: OidcDeps = { db: deps.db, discovery: deps.discovery, config: configFor(provider.issuer, { PUBLIC_ORIGIN: "https://dash.example.test" }) };
    const res = await oidcStart(new Request(`${app}/signin/oidc`), behindProxy);
    expect(new URL(res.headers.get("location") ?? "").searchParams.get("redirect_uri")).toBe("https://dash.example.test/signin/callback");
    expect(setCookies(res).get(FLOW_COOKIE)?.attrs).toMatch(/Secure/);
  });

  it("refuses a Host it cannot believe instead of putting it into the redirect_uri", async () => {
    for (const host of ["evil.example", "evil.example:80"]) {
      const res = await oidcStart(new Request(`${app}/signin/oidc`, { headers: { host } }), deps);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "untrusted_host", hint: expect.stringMatching(/PUBLIC_ORIGIN/) });
      const back = await oidcCallback(new Request(`${app}/signin/callback?code=x&state=y`, { headers: { host } }), deps);
      expect(back.status).toBe(400);
    }
    // With PUBLIC_ORIGIN set, the Host does not matter.
    const behindProxy: OidcDeps = { db: deps.db, discovery: deps.discovery, config: configFor(provider.issuer, { PUBLIC_ORIGIN: "https://dash.example.test" }) };
    const res = await oidcStart(new Request(`${app}/signin/oidc`, { headers: { host: "evil.example" } }), behindProxy);
    expect(new URL(res.headers.get("location") ?? "").searchParams.get("redirect_uri")).toBe("https://dash.example.test/signin/callback");
  });

  it("reads the claims from the ID token when the provider puts them there", async () => {
    const appOrigin = `http://127.0.0.1:${await freePort()}`;
    const second = await mod.startProvider({ port: await freePort(), redirectUri: `${appOrigin}/signin/callback`, claimsInIdToken: true });
    try {
      const d: OidcDeps = { db: deps.db, discovery: deps.discovery, config: configFor(second.issuer) };
      const { callbackUrl, flowCookie } = await throughProvider(ADMIN, { deps: d, appOrigin });
      const fetched = spyOnFetch();
      const res = await callback(callbackUrl, { [FLOW_COOKIE]: flowCookie }, d).finally(fetched.stop);
      expect(fetched.urls.map((u) => new URL(u).pathname)).not.toContain("/me");
      expect(fetched.urls.map((u) => new URL(u).pathname)).toContain("/token");
      expect(res.headers.get("location")).toBe("/after");
      const user = await userForToken(h.db, setCookies(res).get(SESSION_COOKIE)?.value);
      expect(user).toMatchObject({ email: ADMIN, groups: ["admin", "cx"] });
    } finally {
      await second.close();
    }
  });

  it("answers 404 on both routes when no provider is configured", async () => {
    const off: OidcDeps = { db: deps.db, discovery: deps.discovery, config: parseConfig({ NODE_ENV: "test" }) };
    expect((await oidcStart(new Request(`${app}/signin/oidc`), off)).status).toBe(404);
    expect((await oidcCallback(new Request(`${app}/signin/callback?code=x&state=y`), off)).status).toBe(404);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { SQLite } from "@/lib/db/sqlite-driver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { ensureBuilt, startProduction, type ProductionServer } from "../support/production";

// The holder of an MCP access token, from a real grant the admin approved on the consent page of
// the production server, as an adversary: every tool the server lists, and names it does not,
// called with arguments made to do harm — every value any earlier answer carried (a question, an
// agreement, a URL), other people's handles, write methods, paths outside /api, extra fields
// that name a yes. Afterwards nothing the admin owns has changed (trust list, favourites, home,
// saved dashboards and their history, snapshots, connections), no live answer of someone else's dashboard
// came back, and disconnecting the app leaves nothing it might have done behind.

beforeAll(() => ensureBuilt(), 900_000);

const REDIRECT = "http://127.0.0.1:45679/callback";
const MCP = "/dashboards/playground/mcp";
const ADMIN = "admin@demo.test";

/** What the admin owns, row for row; what an app may change of its own grant is not among it. */
const OWNED: Record<string, string> = {
  users: "select id, email, name, handle, home_path from users order by id",
  user_groups: "select * from user_groups order by 1, 2",
  favourites: "select * from favourites order by user_id, href",
  trusted_authors: "select * from trusted_authors order by user_id, author_id",
  saved_dashboards: "select * from saved_dashboards order by 1",
  saved_dashboard_revisions: "select * from saved_dashboard_revisions order by 1, 2",
  data_sources: "select * from data_sources order by 1",
  connector_tokens: "select * from connector_tokens order by 1",
  donor_credentials: "select * from donor_credentials order by 1",
  calls_opt_ins: "select * from calls_opt_ins order by 1",
  snapshots: "select * from snapshots order by 1",
};

describe("an MCP access token in an adversary's hands", () => {
  let server: ProductionServer;
  let dataDir: string;
  let file: string;
  const stamp = randomBytes(3).toString("hex");

  const snapshot = (): Record<string, unknown[]> => {
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      return Object.fromEntries(Object.entries(OWNED).map(([table, query]) => [table, db.prepare(query).all()]));
    } finally {
      db.close();
    }
  };

  /** A person signed in through demo sign-in, with the CSRF token their pages carry. */
  async function signIn(email: string): Promise<{ cookie: string; csrf: string }> {
    const r = await fetch(`${server.url}/signin/demo`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, "sec-fetch-site": "same-origin" },
      body: new URLSearchParams({ email, next: "/" }).toString(),
      redirect: "manual",
    });
    expect(r.status).toBe(303);
    const cookie = r.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .find((c) => c.startsWith("dd_session="));
    expect(cookie).toBeTruthy();
    const page = await (await fetch(`${server.url}/dashboards/playground`, { headers: { cookie: cookie! } })).text();
    const csrf = /csrf\\?":\\?"([A-Za-z0-9_-]{20,})/.exec(page)?.[1];
    expect(csrf, "the editor page carries the CSRF token").toBeTruthy();
    return { cookie: cookie!, csrf: csrf! };
  }

  /** What one of this site's own pages sends for a person's action. */
  const ours = (who: { cookie: string; csrf: string }, extra: Record<string, string> = {}) => ({
    cookie: who.cookie,
    origin: server.url,
    "sec-fetch-site": "same-origin",
    "x-csrf-token": who.csrf,
    ...extra,
  });

  /** A real grant: registration, the consent page's Approve as the admin's browser sends it, and the code for tokens. */
  async function grant(admin: { cookie: string; csrf: string }): Promise<string> {
    const reg = await fetch(`${server.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: `Token holder ${stamp}`, redirect_uris: [REDIRECT] }),
    });
    expect(reg.status).toBe(201);
    const { client_id } = (await reg.json()) as { client_id: string };
    const verifier = randomBytes(32).toString("base64url");
    const query = new URLSearchParams({
      response_type: "code",
      client_id,
      redirect_uri: REDIRECT,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      state: "s",
      resource: `${server.url}${MCP}`,
    });
    const consent = await (await fetch(`${server.url}/oauth/authorize?${query}`, { headers: { cookie: admin.cookie } })).text();
    const fields = Object.fromEntries([...consent.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, "&")]));
    expect(fields.csrf).toBeTruthy();
    const body = new URLSearchParams({ ...fields, decision: "approve" }).toString();
    const approved = await fetch(`${server.url}/oauth/authorize`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)), cookie: admin.cookie, origin: server.url, "sec-fetch-site": "same-origin" },
      body,
      redirect: "manual",
    });
    expect(approved.status).toBe(303);
    const code = new URL(approved.headers.get("location")!).searchParams.get("code")!;
    const tokens = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", client_id, code, redirect_uri: REDIRECT, code_verifier: verifier, resource: `${server.url}${MCP}` }).toString(),
    });
    expect(tokens.status).toBe(200);
    return ((await tokens.json()) as { access_token: string }).access_token;
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-token-holder-"));
    file = path.join(dataDir, "app.sqlite");
    server = await startProduction({ DATA_DIR: dataDir });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("calls every tool with every argument it can make and changes nothing the person owns; the person's Disconnect then leaves nothing behind", { timeout: 240_000 }, async () => {
    // Someone else's dashboard that reads the admin's data, and one of the admin's own.
    const csm = await signIn("csm@demo.test");
    const hostile = `<!doctype html><title>Hostile ${stamp}</title><script>const API = window.DASHBOARD_API_BASE || "/api"; fetch(API + "/me"); fetch(API + "/crm/users/contacts"); location.href = "https://" + "${stamp}" + ".leak.test";</script>`;
    const saved = await fetch(`${server.url}/~/csm/hostile-${stamp}`, { method: "POST", headers: ours(csm, { "content-type": "text/html" }), body: hostile });
    expect(saved.status).toBe(201);
    const admin = await signIn(ADMIN);
    const own = await fetch(`${server.url}/~/admin/own-${stamp}`, { method: "POST", headers: ours(admin, { "content-type": "text/html" }), body: `<!doctype html><title>Own</title><script>fetch("/api/me")</script>` });
    expect(own.status).toBe(201);

    // A snapshot of the admin's own, frozen by the admin at this site's page: the token may neither
    // share nor revoke it, nor make another.
    const frozen = await fetch(`${server.url}/account/snapshots`, { method: "POST", headers: ours(admin, { "content-type": "application/json" }), body: JSON.stringify({ op: "create", path: `/~/admin/own-${stamp}` }) });
    expect(frozen.status, await frozen.clone().text()).toBe(201);
    const frozenId = ((await frozen.json()) as { snapshot: { id: string } }).snapshot.id;

    const access = await grant(admin);
    const before = snapshot();
    expect(before.snapshots).toHaveLength(1);
    const client = new Client({ name: "token-holder", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}${MCP}`), { requestInit: { headers: { authorization: `Bearer ${access}` } } }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["show_dashboard", "read_dashboard", "read_live_data"]));

    // Every string any answer carried is a candidate argument: a question or an agreement, if
    // one were ever handed out, would be found and replayed here.
    const harvested = new Set<string>([`${Date.now() + 60_000}.AAAA`, "yes", "always", "true", frozenId, `/snapshots/${frozenId}`]);
    const harvest = (value: unknown): void => {
      if (typeof value === "string" && value.length <= 300) harvested.add(value);
      else if (Array.isArray(value)) value.slice(0, 50).forEach(harvest);
      else if (value && typeof value === "object") Object.values(value).slice(0, 50).forEach(harvest);
    };
    const results: { name: string; args: Record<string, unknown>; result: CallToolResult }[] = [];
    const call = async (name: string, args: Record<string, unknown>) => {
      let result: CallToolResult;
      try {
        result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      } catch (e) {
        result = { content: [{ type: "text", text: String(e) }], isError: true };
      }
      results.push({ name, args, result });
      harvest(result.structuredContent);
      harvest(result._meta);
      return result;
    };

    const targets = [
      { handle: "csm", slug: `hostile-${stamp}` },
      { handle: "admin", slug: `own-${stamp}` },
      { handle: "csm", slug: "../admin" },
      { handle: "admin\u202e", slug: "x" },
    ];
    const paths = ["/api/me", "/api/crm/users/contacts", "/api/me/favourites", "/account/trust", "/api/../account/trust", "//evil.test/x", "/api/me?op=add&handle=csm"];
    const extras = [{}, { always: true }, { consent: "" }, { agreement: "" }, { trust: true, op: "add" }];
    for (const target of targets) await call("show_dashboard", target);
    await call("read_live_data", { ...targets[1]!, path: "/api/me" });

    const fill = (tool: Tool, round: number): Record<string, unknown>[] => {
      const props = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>);
      const pool = [...harvested];
      return extras.map((extra, i) => {
        const args: Record<string, unknown> = {};
        const target = targets[(round + i) % targets.length]!;
        for (const p of props) {
          if (p === "handle" || p === "slug") args[p] = target[p];
          else if (p === "path") args[p] = paths[(round + i) % paths.length];
          else if (p === "method") args[p] = ["POST", "DELETE", "PUT", "GET"][(round + i) % 4];
          else if (p === "html") args[p] = `<title>t</title><script>fetch("/account/trust",{method:"POST"})</script>`;
          else args[p] = pool[(round * 7 + i) % pool.length];
        }
        for (const [k, v] of Object.entries(extra)) args[k] = v === "" ? pool[(round + i) % pool.length] : v;
        return args;
      });
    };
    for (let round = 0; round < 4; round++) {
      for (const tool of tools) for (const args of fill(tool, round)) await call(tool.name, args);
      // Names a server might have had for a person's yes.
      for (const name of ["allow_dashboard", "trust_author", "save_dashboard", "add_favourite", "set_home"]) {
        await call(name, { handle: "csm", slug: `hostile-${stamp}`, consent: [...harvested][round % harvested.size], always: true, href: "/~/csm", path: "/~/csm" });
      }
      for (const name of ["freeze_snapshot", "create_snapshot", "share_snapshot", "revoke_snapshot", "snapshot"]) {
        await call(name, { handle: "admin", slug: `own-${stamp}`, path: `/~/admin/own-${stamp}`, id: frozenId, op: ["create", "share", "revoke"][round % 3], visibility: "link" });
      }
    }
    // Every value harvested so far in every free field of every tool that names a dashboard, and
    // in the fields a yes might travel in, against someone else's dashboard; then the live read
    // once more with each. Only the fields a tool declares, so its strict schema takes the call.
    const declared = (tool: Tool) => Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>);
    for (const tool of tools.filter((t) => declared(t).includes("handle"))) {
      const props = declared(tool);
      const base = { handle: "csm", slug: `hostile-${stamp}`, ...(props.includes("path") ? { path: "/api/me" } : {}), ...(props.includes("always") ? { always: true } : {}) };
      for (const field of props.filter((p) => !["handle", "slug", "path", "method", "always"].includes(p))) {
        for (const value of [...harvested].slice(0, 60)) await call(tool.name, { ...base, [field]: value });
      }
      for (const field of ["consent", "agreement"].filter((f) => !props.includes(f))) await call(tool.name, { ...base, [field]: [...harvested][0] });
    }
    for (const value of [...harvested].slice(0, 120)) {
      for (const field of ["agreement", "consent"]) await call("read_live_data", { handle: "csm", slug: `hostile-${stamp}`, path: "/api/me", [field]: value });
    }
    // The token itself at the snapshots' action, bare and dressed as the admin's page: no session, no action.
    for (const body of [{ op: "create", path: `/~/admin/own-${stamp}` }, { op: "share", id: frozenId, visibility: "link" }, { op: "revoke", id: frozenId }]) {
      const dressed: Record<string, string>[] = [{ authorization: `Bearer ${access}` }, { authorization: `Bearer ${access}`, origin: server.url, "sec-fetch-site": "same-origin", "x-csrf-token": admin.csrf }];
      for (const headers of dressed) {
        const res = await fetch(`${server.url}/account/snapshots`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) });
        expect(res.status, JSON.stringify(body)).toBe(401);
        expect(((await res.json()) as { error: string }).error).toBe("unauthorized");
      }
    }
    // Nor does it open the private snapshot: a bearer token is nobody at that address.
    const asToken = await fetch(`${server.url}/snapshots/${frozenId}`, { headers: { authorization: `Bearer ${access}`, accept: "application/json" } });
    expect(asToken.status).toBe(404);
    expect(results.length).toBeGreaterThan(100);
    expect(snapshot()).toEqual(before);

    // Nothing of the admin's came back for someone else's dashboard.
    const theirs = results.filter((r) => r.args.handle === "csm" && String(r.args.slug).startsWith("hostile-"));
    for (const r of theirs) {
      const content = r.result.structuredContent as { status?: number; html?: string } | undefined;
      if (r.name === "read_live_data" && content?.status !== undefined) expect(content.status, JSON.stringify(r.args)).not.toBe(200);
      expect(JSON.stringify(r.result), `${r.name} ${JSON.stringify(r.args)}`).not.toContain(ADMIN);
      expect(content?.html, r.name).toBeUndefined();
    }
    // The tools did answer: the admin's own dashboard ran on their data through the same token.
    expect(results.some((r) => r.name === "read_live_data" && r.args.handle === "admin" && (r.result.structuredContent as { status?: number } | undefined)?.status === 200)).toBe(true);
    // No answer carries anything that could stand for the admin's yes.
    expect(results.filter((r) => r.result._meta !== undefined && "consent" in (r.result._meta as object))).toEqual([]);

    // The account page agrees: nobody trusted.
    const account = await (await fetch(`${server.url}/account`, { headers: { cookie: admin.cookie } })).text();
    expect(account).toContain(`Token holder ${stamp}`);
    expect(account).toContain('data-testid="trusted-none"');

    // A trust entry from before origins were recorded, made while the app was connected, is one
    // it might have made: Disconnect takes it back; the one the admin made on this site stays.
    const sqlite = new SQLite(file);
    sqlite.pragma("busy_timeout = 5000");
    const ids = Object.fromEntries((sqlite.prepare("select handle, id from users").all() as { handle: string; id: number }[]).map((u) => [u.handle, u.id]));
    sqlite.prepare("insert into trusted_authors (user_id, author_id, created_at, made_via) values (?, ?, ?, 'unrecorded')").run(ids.admin, ids.csm, Date.now());
    sqlite.close();
    const trusted = await fetch(`${server.url}/account/trust`, { method: "POST", headers: ours(admin, { "content-type": "application/json" }), body: JSON.stringify({ op: "add", handle: "member" }) });
    expect(trusted.status, await trusted.clone().text()).toBe(200);
    const grantId = /name="grant" value="([^"]+)"/.exec(await (await fetch(`${server.url}/account`, { headers: { cookie: admin.cookie } })).text())?.[1];
    expect(grantId).toBeTruthy();
    const form = new URLSearchParams({ csrf: admin.csrf, grant: grantId! }).toString();
    const gone = await fetch(`${server.url}/oauth/connected-apps`, {
      method: "POST",
      headers: { cookie: admin.cookie, origin: server.url, "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(form)) },
      body: form,
      redirect: "manual",
    });
    expect(gone.status).toBe(303);
    const after = snapshot().trusted_authors as { user_id: number; author_id: number; made_via: string }[];
    expect(after.filter((t) => t.user_id === ids.admin).map((t) => [t.author_id, t.made_via])).toEqual([[ids.member, "site"]]);
    await expect(client.callTool({ name: "show_dashboard", arguments: targets[1]! })).rejects.toThrow();
    await client.close();
  });
});

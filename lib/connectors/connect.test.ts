import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { createSealer } from "@/lib/crypto/secrets";
import type { Db } from "@/lib/db";
import { connectors } from "./registry";
import { finishConnect, startConnect, type ConnectDeps } from "./connect";

// The OAuth redirect URI names this server: a Host it cannot believe never gets into one.

const user = { id: 1, email: "csm@demo.test", handle: "csm", name: "CSM", groups: [], permissions: [] };
// Refused before any query: a database that fails if touched.
const untouchable = new Proxy({}, { get: () => () => { throw new Error("the database was used"); } }) as unknown as Db;

function deps(env: Record<string, string> = {}): ConnectDeps {
  return { db: untouchable, sealer: createSealer("connect-test-key-".repeat(3)), config: parseConfig(env), user, connector: connectors.tracker, invalidate: () => {} };
}

describe("connect redirect URIs", () => {
  it("refuses a forged Host with 400 untrusted_host when PUBLIC_ORIGIN is unset", async () => {
    const start = await startConnect(new Request("http://127.0.0.1:3000/connections/tracker/connect", { method: "POST", headers: { host: "evil.example" } }), deps(), "user");
    expect(start.status).toBe(400);
    expect(await start.json()).toEqual({ error: "untrusted_host", hint: expect.stringMatching(/PUBLIC_ORIGIN/) });
    const finish = await finishConnect(new Request("http://127.0.0.1:3000/connections/tracker/callback?state=x", { headers: { host: "evil.example:3000" } }), deps());
    expect(finish.status).toBe(400);
  });

  it("builds it from PUBLIC_ORIGIN when set, and from a loopback Host otherwise", async () => {
    const flows: unknown[] = [];
    const db = { deleteFrom: () => ({ where: () => ({ execute: async () => {} }) }), insertInto: () => ({ values: (v: unknown) => ({ execute: async () => flows.push(v) }) }) } as unknown as Db;
    const behind = { ...deps({ PUBLIC_ORIGIN: "https://dash.example.test" }), db };
    const res = await startConnect(new Request("http://127.0.0.1:3000/connections/tracker/connect", { method: "POST", headers: { host: "evil.example" } }), behind, "user");
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location") ?? "").searchParams.get("redirect_uri")).toBe("https://dash.example.test/connections/tracker/callback");
    const local = await startConnect(new Request("http://127.0.0.1:3000/connections/tracker/connect", { method: "POST", headers: { host: "localhost:3000" } }), { ...deps(), db }, "user");
    expect(new URL(local.headers.get("location") ?? "").searchParams.get("redirect_uri")).toBe("http://localhost:3000/connections/tracker/callback");
    expect(flows).toHaveLength(2);
  });
});

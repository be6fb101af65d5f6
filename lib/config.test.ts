import path from "node:path";
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import { configProblems, configVariables, parseConfig } from "./config";

describe("configuration", () => {
  it("defaults to the embedded mode: SQLite under .data, the demo tenant, port 3000, no identity provider", () => {
    const c = parseConfig({});
    expect(c.port).toBe(3000);
    expect(c.storage).toEqual({ kind: "sqlite", file: path.resolve(".data", "app.sqlite") });
    expect(c.demo).toEqual({ enabled: true, scale: 1 });
    expect(c.oidc).toBeNull();
  });

  it("switches to PostgreSQL with DATABASE_URL and honours PORT", () => {
    const c = parseConfig({ DATABASE_URL: "postgres://u@db:5432/app", PORT: "8080" });
    expect(c.storage).toEqual({ kind: "postgres", url: "postgres://u@db:5432/app", schema: undefined });
    expect(c.port).toBe(8080);
  });

  it("rejects bad values with a message naming the variable", () => {
    expect(() => parseConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ OIDC_ISSUER: "https://id.example.test" })).toThrow(/OIDC_CLIENT_ID/);
    expect(() => parseConfig({ DATABASE_SCHEMA: "x; drop" })).toThrow(/DATABASE_SCHEMA/);
  });

  it("lists each problem as VARIABLE: what is wrong, without repeating the value", () => {
    expect(configProblems({})).toEqual([]);
    expect(configProblems({ PLAYGROUND_READS_PER_MIN: "lots" })).toEqual(["PLAYGROUND_READS_PER_MIN: must be a number"]);
    expect(configProblems({ PLAYGROUND_STREAMS_PER_ADDRESS: "500", PLAYGROUND_STREAMS_TOTAL: "100" })).toEqual([
      "PLAYGROUND_STREAMS_TOTAL: must be above PLAYGROUND_STREAMS_PER_ADDRESS, or one address could fill it",
    ]);
    const secret = configProblems({ SECRET_KEY: "short-secret-value" });
    expect(secret).toEqual(["SECRET_KEY: must be at least 32 characters"]);
  });

  it("bounds the OAuth clients kept, per address and in all, and refuses bounds one address could fill", () => {
    expect(parseConfig({}).oauth.registrations).toEqual({ perAddress: 100, total: 10_000 });
    expect(parseConfig({ OAUTH_UNAPPROVED_PER_ADDRESS: "3", OAUTH_CLIENTS_MAX: "40" }).oauth.registrations).toEqual({ perAddress: 3, total: 40 });
    expect(configProblems({ OAUTH_UNAPPROVED_PER_ADDRESS: "50", OAUTH_CLIENTS_MAX: "50" })).toEqual(["OAUTH_CLIENTS_MAX: must be above OAUTH_UNAPPROVED_PER_ADDRESS, or one address could fill it"]);
    expect(configProblems({ OAUTH_UNAPPROVED_PER_ADDRESS: "0" })).toEqual(["OAUTH_UNAPPROVED_PER_ADDRESS: Too small: expected number to be >=1"]);
    expect(parseConfig({}).oauth.metadataFromPrivateAddresses).toBe(false);
    expect(parseConfig({ OAUTH_CLIENT_METADATA_PRIVATE: "1" }).oauth.metadataFromPrivateAddresses).toBe(true);
    expect(configProblems({ OAUTH_CLIENT_METADATA_PRIVATE: "yes" })).toEqual([expect.stringMatching(/^OAUTH_CLIENT_METADATA_PRIVATE: /)]);
    expect(configProblems({ OAUTH_CLIENTS_MAX: "many" })).toEqual(["OAUTH_CLIENTS_MAX: must be a number"]);
  });

  it("configures OIDC when an issuer is given", () => {
    const c = parseConfig({ OIDC_ISSUER: "https://id.example.test", OIDC_CLIENT_ID: "app", OIDC_ALLOW_HTTP: "1" });
    expect(c.oidc).toMatchObject({ issuer: "https://id.example.test", clientId: "app", groupsClaim: "groups", allowHttp: true });
  });

  it("documents every variable it reads in .env.example, and nothing it does not read", () => {
    const documented = fs
      .readFileSync(path.resolve(import.meta.dirname, "..", ".env.example"), "utf8")
      .split("\n")
      .flatMap((l) => /^([A-Z][A-Z0-9_]*)=/.exec(l)?.slice(1, 2) ?? []);
    expect(new Set(documented)).toEqual(new Set(configVariables.filter((v) => v !== "NODE_ENV")));
  });
});

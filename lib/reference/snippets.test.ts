import { describe, expect, it } from "vitest";
import { checkDraft } from "@/lib/check";
import { allOperations, docsModel } from "./model";
import { curlSnippet, fetchSnippet, tryItRequest } from "./snippets";

const ops = allOperations(docsModel());
const apiOps = ops.filter((o) => o.base === "api");

describe("fetch snippets", () => {
  it("exist for every API endpoint and pass the static check without errors or warnings", () => {
    expect(apiOps.length).toBeGreaterThan(20);
    for (const op of apiOps) {
      const js = fetchSnippet(op);
      expect(js, op.path).toContain('const API = window.DASHBOARD_API_BASE || "/api";');
      const findings = checkDraft(`<!doctype html><title>t</title><script>${js}</script>`).filter((f) => f.severity !== "info");
      expect(findings, `${op.path}: ${JSON.stringify(findings)}`).toEqual([]);
    }
  });

  it("follow nextCursor on paged lists and show waitingOn on CX answers", () => {
    const companies = fetchSnippet(apiOps.find((o) => o.registryId === "crm.companies")!);
    expect(companies).toContain("cursor = page.nextCursor;");
    expect(companies).toContain("all.push(...page.companies);");
    const book = fetchSnippet(apiOps.find((o) => o.registryId === "cx.book")!);
    expect(book).toContain("if (!body.ok) return { waitingOn: body.waitingOn");
    expect(book).toMatch(/\/cx\/book\?owner=\w+/);
  });

  it("are not offered for the playground or saving routes", () => {
    for (const op of ops.filter((o) => o.base !== "api")) expect(fetchSnippet(op)).toBeNull();
  });
});

describe("curl snippets", () => {
  const origin = "https://dash.example.test";

  it("read the demo API without sign-in and the API with the session cookie", () => {
    const me = curlSnippet(apiOps.find((o) => o.registryId === "me")!, origin);
    expect(me).toContain(`curl -sS '${origin}/dashboards/playground/api/me'`);
    expect(me).toContain(`curl -sS -b cookies.txt '${origin}/api/me'`);
  });

  it("create a draft and follow its stream", () => {
    expect(curlSnippet(ops.find((o) => o.operationId === "playground.createDraft")!, origin)).toContain(`-X POST '${origin}/dashboards/playground/draft?dash=my-dashboard' -H 'Content-Type: text/html'`);
    expect(curlSnippet(ops.find((o) => o.operationId === "playground.draftEvents")!, origin)).toBe(`curl -sS -N '${origin}/dashboards/playground/draft/<read_id>/events'`);
  });

  it("are never offered for saving", () => {
    for (const op of ops.filter((o) => o.section === "saving")) expect(curlSnippet(op, origin)).toBeNull();
  });

  it("quote the address for the shell", () => {
    expect(curlSnippet(apiOps[0]!, "https://it's.test")).toContain(`'https://it'\\''s.test/api/me'`);
  });
});

describe("try it", () => {
  it("starts from each API endpoint's example request", () => {
    for (const op of apiOps) expect(tryItRequest(op)).toBe(op.example?.request);
    expect(tryItRequest(ops.find((o) => o.section === "saving")!)).toBeNull();
  });
});

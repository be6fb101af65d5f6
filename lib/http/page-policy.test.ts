import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { pagePolicy, setsOwnPolicy } from "./page-policy";

describe("the page policy", () => {
  it("holds back plugins, <base>, foreign form targets and framing", () => {
    const policy = pagePolicy(parseConfig({ DEMO_TENANT: "1" }).upstreams);
    expect(policy).toBe("object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
  });

  it("lets forms reach the authorize pages of connectors that use a vendor (Connect redirects there after a post)", () => {
    const cfg = parseConfig({ DEMO_TENANT: "0", CODEREPO_CLIENT_ID: "id", TRACKER_CLIENT_ID: "id", TRACKER_AUTHORIZE_URL: "https://auth.example.test/oauth/authorize?x=1" });
    expect(pagePolicy(cfg.upstreams)).toContain("form-action 'self' https://auth.example.test https://github.com;");
  });

  it("is not sent where the route sends its own", () => {
    for (const p of ["/dashboards/frame", "/~/csm/my-book/source", "/stand-ins/tracker/oauth/authorize"]) expect(setsOwnPolicy(p), p).toBe(true);
    for (const p of ["/", "/dashboards/frame/x", "/~/csm/my-book", "/stand-ins/tracker/oauth/token", "/api/me"]) expect(setsOwnPolicy(p), p).toBe(false);
  });
});

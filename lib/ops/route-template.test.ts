import { describe, expect, it } from "vitest";
import { UNMATCHED, routeTemplates } from "./route-template";

// The manifest's shape as the build writes it (.next/routes-manifest.json).
const manifest = {
  staticRoutes: [
    { page: "/", regex: "^/(?:/)?$" },
    { page: "/healthz", regex: "^/healthz(?:/)?$" },
    { page: "/dashboards/playground/draft", regex: "^/dashboards/playground/draft(?:/)?$" },
  ],
  dynamicRoutes: [
    { page: "/dashboards/playground/draft/[token]", regex: "^/dashboards/playground/draft/([^/]+?)(?:/)?$" },
    { page: "/dashboards/playground/draft/[token]/events", regex: "^/dashboards/playground/draft/([^/]+?)/events(?:/)?$" },
    { page: "/api/[[...path]]", regex: "^/api(?:/(.+?))?(?:/)?$" },
  ],
};

describe("route templates", () => {
  const template = routeTemplates(manifest);

  it("name a request by its route, never by the values in its path", () => {
    expect(template("/")).toBe("/");
    expect(template("/healthz")).toBe("/healthz");
    expect(template("/healthz/")).toBe("/healthz");
    expect(template("/dashboards/playground/draft")).toBe("/dashboards/playground/draft");
    expect(template("/dashboards/playground/draft/wT0k3n-secret-value")).toBe("/dashboards/playground/draft/[token]");
    expect(template("/dashboards/playground/draft/abcdefghijklmnop/events")).toBe("/dashboards/playground/draft/[token]/events");
    expect(template("/api/cx/book")).toBe("/api/[[...path]]");
    expect(template("/_next/static/chunks/x.js")).toBe("/_next/static");
  });

  it("put every address no route answers under one label", () => {
    expect(template("/nope")).toBe(UNMATCHED);
    expect(template(`/${"x".repeat(500)}`)).toBe(UNMATCHED);
    expect(routeTemplates({})("/healthz")).toBe(UNMATCHED);
  });
});

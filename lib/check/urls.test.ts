import { describe, expect, it } from "vitest";
import { endpoints } from "@/lib/contract/endpoints";
import { HOLE, PAGED_PATHS, classifyApiUrl, isBlockedResource, pagedEndpoint, readsCx } from "./urls";

describe("classifyApiUrl", () => {
  it("tells the bases, absolute API URLs and bare API paths apart", () => {
    expect(classifyApiUrl("/api")).toBe("base-only");
    expect(classifyApiUrl("/api/")).toBe("base-only");
    expect(classifyApiUrl("/api/cx/book")).toBe("api");
    expect(classifyApiUrl("/api?x=1")).toBe("api");
    expect(classifyApiUrl("/dashboards/playground/api/me")).toBe("playground");
    expect(classifyApiUrl("https://host.example/api/me")).toBe("absolute");
    expect(classifyApiUrl("http://localhost:3000/dashboards/playground/api")).toBe("absolute");
    expect(classifyApiUrl("//host.example/crm/customers/companies")).toBe("absolute");
    expect(classifyApiUrl("/vendors/tracker/issues")).toBe("bare-path");
    expect(classifyApiUrl("/me")).toBe("bare-path");
  });

  it("flags a base written after another value", () => {
    expect(classifyApiUrl(`${HOLE}/api/me`)).toBe("api");
    expect(classifyApiUrl(`${HOLE}${HOLE}/dashboards/playground/api/me`)).toBe("playground");
    expect(classifyApiUrl(`${HOLE}/api`)).toBe("base-only");
  });

  it("leaves URLs built on a base and other URLs alone", () => {
    expect(classifyApiUrl(`${HOLE}/cx/book`)).toBeNull();
    expect(classifyApiUrl(`${HOLE}/apiary`)).toBeNull();
    expect(classifyApiUrl("/apiary")).toBeNull();
    expect(classifyApiUrl("/media/logo.png")).toBeNull();
    expect(classifyApiUrl("https://example.com/data.json")).toBeNull();
    expect(classifyApiUrl("https://example.com/")).toBeNull();
  });
});

describe("paged endpoints", () => {
  it("come from the endpoint registry", () => {
    const fromRegistry = endpoints.filter((e) => "pagedList" in e && e.pagedList).map((e) => e.path);
    expect(PAGED_PATHS).toEqual(fromRegistry);
    expect(PAGED_PATHS).toContain("/vendors/support/conversations");
    expect(PAGED_PATHS).toContain("/crm/:instance/deals");
  });

  it("match URL shapes with holes for parameters", () => {
    expect(pagedEndpoint(`${HOLE}/crm/${HOLE}/companies?limit=200`)).toBe("/crm/:instance/companies");
    expect(pagedEndpoint(`${HOLE}/crm/customers/contacts${HOLE}`)).toBe("/crm/:instance/contacts");
    expect(pagedEndpoint("/vendors/support/conversations?cursor=x")).toBe("/vendors/support/conversations");
    expect(pagedEndpoint("/vendors/crmportal/companies")).toBeNull();
    expect(pagedEndpoint("/crm/customers/companies-report")).toBeNull();
    expect(pagedEndpoint("/crm/customers/summary")).toBeNull();
  });
});

describe("helpers", () => {
  it("readsCx knows the CX views", () => {
    expect(readsCx(`${HOLE}/cx/book?owner=1`)).toBe(true);
    expect(readsCx(`${HOLE}/cx/${HOLE}`)).toBe(true);
    expect(readsCx("/docs/cx/intro")).toBe(false);
  });

  it("isBlockedResource lets data: images and fragments through", () => {
    expect(isBlockedResource("data:image/png;base64,AA", true)).toBe(false);
    expect(isBlockedResource("data:text/javascript,alert(1)", false)).toBe(true);
    expect(isBlockedResource("blob:abc", true)).toBe(false);
    expect(isBlockedResource("#icon", false)).toBe(false);
    expect(isBlockedResource("  ", false)).toBe(false);
    expect(isBlockedResource("about:blank", false)).toBe(false);
    expect(isBlockedResource("logo.png", true)).toBe(true);
    expect(isBlockedResource("HTTPS://x.example/a.png", true)).toBe(true);
  });
});

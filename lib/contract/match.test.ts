import { describe, expect, it } from "vitest";
import { endpoints } from "./endpoints";
import { matchPath } from "./match";

describe("matchPath", () => {
  it("finds every registered path, with its parameters", () => {
    for (const e of endpoints) {
      const path = e.path.replace(/:(\w+)/g, "v-$1");
      const m = matchPath(path);
      expect(m?.endpoint.id, path).toBe(e.id);
    }
    expect(matchPath("/crm/users/deals")?.params).toEqual({ instance: "users" });
  });

  it("prefers the literal detailed listing over a call id", () => {
    expect(matchPath("/vendors/calls/calls/detailed")?.endpoint.id).toBe("vendors.calls.detailed");
    expect(matchPath("/vendors/calls/calls/abc%20d/transcript")?.params).toEqual({ id: "abc d" });
  });

  it("matches nothing for unknown, partial, trailing-slash or traversal paths", () => {
    for (const p of ["/", "/me/", "/crm/customers", "/crm/customers/companies/x", "/me/../me", "/vendors/calls/calls/%E0%A4%A/transcript"]) {
      expect(matchPath(p), p).toBeNull();
    }
  });
});

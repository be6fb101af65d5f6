import { Kind, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { failureOfLinearError, linearRateLimitWait } from "./linear-errors";
import { additionsMissingFrom } from "./schema";

describe("failureOfLinearError", () => {
  const err = (type?: string, code?: string, message = "m") => ({ message, extensions: { type, code } });

  it.each([
    ["authentication error", "unauthorized"],
    ["forbidden", "forbidden"],
    ["feature not accessible", "forbidden"],
    ["usage limit exceeded", "forbidden"],
    ["ratelimited", "rate_limited"],
    ["internal error", "server"],
    ["network error", "server"],
    ["lock timeout", "server"],
    ["invalid input", "bad_response"],
    ["graphql error", "bad_response"],
  ] as const)("sorts Linear's type %s as %s", (type, kind) => {
    expect(failureOfLinearError(err(type))).toBe(kind);
  });

  it("falls back on the code when the type says nothing more specific", () => {
    expect(failureOfLinearError(err(undefined, "RATELIMITED"))).toBe("rate_limited");
    expect(failureOfLinearError(err("unknown", "AUTHENTICATION_ERROR"))).toBe("unauthorized");
    expect(failureOfLinearError(err("invalid input", "ENTITY_NOT_FOUND"))).toBe("not_found");
    expect(failureOfLinearError(err(undefined, "GRAPHQL_VALIDATION_FAILED"))).toBe("bad_response");
    expect(failureOfLinearError({ message: "no extensions" })).toBe("bad_response");
  });

  it("reads the type before the code, as Linear's SDK does", () => {
    expect(failureOfLinearError(err("ratelimited", "INTERNAL_SERVER_ERROR"))).toBe("rate_limited");
  });
});

describe("linearRateLimitWait", () => {
  const now = 1_700_000_000_000;
  const h = (o: Record<string, string>) => new Headers(o);

  it("takes Retry-After first", () => {
    expect(linearRateLimitWait(h({ "retry-after": "7", "x-ratelimit-requests-remaining": "0", "x-ratelimit-requests-reset": String(now + 60_000) }), now)).toBe(7_000);
  });

  it("waits until the spent budget resets, the later when both are spent", () => {
    expect(linearRateLimitWait(h({ "x-ratelimit-requests-remaining": "0", "x-ratelimit-requests-reset": String(now + 3_000) }), now)).toBe(3_000);
    const both = h({
      "x-ratelimit-requests-remaining": "0",
      "x-ratelimit-requests-reset": String(now + 3_000),
      "x-ratelimit-complexity-remaining": "0",
      "x-ratelimit-complexity-reset": String(now + 9_000),
    });
    expect(linearRateLimitWait(both, now)).toBe(9_000);
    const complexityOnly = h({
      "x-ratelimit-requests-remaining": "40",
      "x-ratelimit-requests-reset": String(now + 3_000),
      "x-ratelimit-complexity-remaining": "0",
      "x-ratelimit-complexity-reset": String(now + 9_000),
    });
    expect(linearRateLimitWait(complexityOnly, now)).toBe(9_000);
  });

  it("with no budget spent, the earliest reset; a reset in seconds is read as seconds; a past one is no wait", () => {
    expect(linearRateLimitWait(h({ "x-ratelimit-requests-reset": String(now + 4_000), "x-ratelimit-complexity-reset": String(now + 2_000) }), now)).toBe(2_000);
    expect(linearRateLimitWait(h({ "x-ratelimit-requests-remaining": "0", "x-ratelimit-requests-reset": String(now / 1000 + 5) }), now)).toBe(5_000);
    expect(linearRateLimitWait(h({ "x-ratelimit-requests-remaining": "0", "x-ratelimit-requests-reset": String(now - 1) }), now)).toBe(0);
  });

  it("is null when the answer names no time", () => {
    expect(linearRateLimitWait(h({}), now)).toBeNull();
    expect(linearRateLimitWait(h({ "x-ratelimit-requests-reset": "soon" }), now)).toBeNull();
  });
});

describe("additionsMissingFrom", () => {
  it("adds only the fields a snapshot lacks, so a refreshed snapshot's own definition wins", () => {
    const snapshot = parse("type Organization { id: ID! suggestedBranchNameEnabled: Boolean! } type Project { id: ID! } type Team { id: ID! }");
    const added = additionsMissingFrom(snapshot).flatMap((d) => (d.kind === Kind.OBJECT_TYPE_EXTENSION ? (d.fields ?? []).map((f) => `${d.name.value}.${f.name.value}`) : []));
    expect(added).toContain("Organization.defaultHomeViewTargetId");
    expect(added).toContain("Project.resourceCount");
    expect(added).not.toContain("Organization.suggestedBranchNameEnabled");
  });
});

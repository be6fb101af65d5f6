import { describe, expect, it } from "vitest";
import { repository } from "@/lib/contract/resources";
import type { GhRepo } from "./client";
import { byPushedDesc, probeResultOf, toRepositories, toRepository } from "./map";

function repo(id: number, fullName: string, pushedAt: string | null, isPrivate = true): GhRepo {
  const [owner = "", name = ""] = fullName.split("/");
  return {
    id,
    name,
    full_name: fullName,
    owner: { login: owner },
    html_url: `https://github.com/${fullName}`,
    private: isPrivate,
    pushed_at: pushedAt,
    description: null,
    visibility: isPrivate ? "private" : "public",
  };
}

describe("toRepository", () => {
  it("maps GitHub's fields to the contract's Repository", () => {
    const out = toRepository(repo(1, "demo-edu/web-app", "2026-11-19T10:00:00Z", false));
    expect(out).toEqual({ nameWithOwner: "demo-edu/web-app", url: "https://github.com/demo-edu/web-app", isPrivate: false });
    expect(repository.parse(out)).toEqual(out);
  });

  it("keeps the private flag", () => {
    expect(toRepository(repo(2, "casey-morgan/qbr-templates", null, true)).isPrivate).toBe(true);
  });
});

describe("byPushedDesc", () => {
  it("orders most recently pushed first across page boundaries", () => {
    const out = byPushedDesc([
      repo(1, "o/a", "2026-11-01T00:00:00Z"),
      repo(2, "o/b", "2026-11-19T08:00:00Z"),
      repo(3, "o/c", "2026-11-10T00:00:00Z"),
    ]);
    expect(out.map((r) => r.full_name)).toEqual(["o/b", "o/c", "o/a"]);
  });

  it("compares instants, not strings, so offsets and fractions sort correctly", () => {
    const out = byPushedDesc([repo(1, "o/a", "2026-11-19T10:00:00Z"), repo(2, "o/b", "2026-11-19T11:30:00+02:00"), repo(3, "o/c", "2026-11-19T10:00:00.500Z")]);
    // 11:30+02:00 is 09:30Z, the earliest.
    expect(out.map((r) => r.full_name)).toEqual(["o/c", "o/a", "o/b"]);
  });

  it("puts never-pushed repositories last and breaks ties by name", () => {
    const out = byPushedDesc([repo(1, "o/z", null), repo(2, "o/b", "2026-01-01T00:00:00Z"), repo(3, "o/a", "2026-01-01T00:00:00Z"), repo(4, "o/y", null)]);
    expect(out.map((r) => r.full_name)).toEqual(["o/a", "o/b", "o/y", "o/z"]);
  });

  it("keeps a repository that appeared on two pages once", () => {
    const out = byPushedDesc([repo(1, "o/a", "2026-11-01T00:00:00Z"), repo(2, "o/b", "2026-11-02T00:00:00Z"), repo(1, "o/a", "2026-11-01T00:00:00Z")]);
    expect(out.map((r) => r.id)).toEqual([2, 1]);
  });

  it("does not reorder its input in place", () => {
    const input = [repo(1, "o/a", "2026-11-01T00:00:00Z"), repo(2, "o/b", "2026-11-02T00:00:00Z")];
    byPushedDesc(input);
    expect(input.map((r) => r.id)).toEqual([1, 2]);
  });
});

describe("toRepositories", () => {
  it("sorts then maps", () => {
    expect(toRepositories([repo(1, "o/old", "2025-01-01T00:00:00Z"), repo(2, "o/new", "2026-01-01T00:00:00Z")]).map((r) => r.nameWithOwner)).toEqual([
      "o/new",
      "o/old",
    ]);
  });
});

describe("probeResultOf", () => {
  it("names the login and lists the scopes", () => {
    expect(probeResultOf({ login: "casey-morgan", name: "Casey Morgan" }, ["repo", "read:user"])).toEqual({
      summary: "Connected to GitHub as casey-morgan",
      details: [
        { label: "Login", value: "casey-morgan" },
        { label: "Name", value: "Casey Morgan" },
        { label: "Scopes", value: "repo, read:user" },
      ],
    });
  });

  it("omits scopes when GitHub sent no scope header, and says so when it sent an empty one", () => {
    expect(probeResultOf({ login: "x", name: null }, null).details).toEqual([{ label: "Login", value: "x" }]);
    expect(probeResultOf({ login: "x" }, []).details).toContainEqual({ label: "Scopes", value: "(none)" });
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startSession } from "@/lib/auth/session";
import { endpoints } from "@/lib/contract/endpoints";
import { errorEnvelope } from "@/lib/contract/resources";
import { openDb, type OpenDb } from "@/lib/db";
import { appliedMigrations, migrationNames } from "@/lib/db/migrate";
import { rowCounts } from "@/lib/db/transfer";
import { trustedAuthors } from "@/lib/saved/trust";
import { FIXTURE_IDLE_DAYS, answersOf, people, type Who, type World } from "./world";

// A database written by the previous release (tests/fixtures/upgrade/previous.sqlite, made by
// `npm run fixture:upgrade` with that release's own code) opened by this one: its migrations
// run, no row is lost, and the drafts, saved dashboards and API answer as that release did.

interface Manifest {
  commit: string;
  writtenAt: string;
  migrations: string[];
  world: Pick<World, "ids" | "drafts" | "dashboards">;
  counts: Record<string, number>;
  apiStatus: Record<string, number>;
  answers: Record<string, unknown>;
}

const fixtures = path.resolve(import.meta.dirname, "../../fixtures/upgrade");
const manifest = JSON.parse(fs.readFileSync(path.join(fixtures, "previous.json"), "utf8")) as Manifest;

describe(`a database of the previous release (${manifest.commit.slice(0, 7)}) opened by this one`, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-upgrade-"));
  const file = path.join(dir, "app.sqlite");
  let open: OpenDb;

  beforeAll(async () => {
    // A copy: the committed fixture stays as that release wrote it.
    fs.copyFileSync(path.join(fixtures, "previous.sqlite"), file);
    open = await openDb({ kind: "sqlite", file });
  });
  afterAll(async () => {
    await open.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("runs every migration this release has, from where that release stopped", async () => {
    expect(migrationNames.slice(0, manifest.migrations.length)).toEqual(manifest.migrations);
    expect(await appliedMigrations(open.db)).toEqual(migrationNames);
  });

  it("keeps every row", async () => {
    const now = await rowCounts(open.db);
    for (const [table, n] of Object.entries(manifest.counts)) {
      if (table.startsWith("kysely_")) continue;
      expect(now[table], table).toBe(n);
    }
    expect(manifest.counts.saved_dashboard_revisions).toBeGreaterThan(0);
    expect(manifest.counts.playground_draft_revisions).toBeGreaterThan(0);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("answers drafts, saved dashboards, favourites, homes and trust as that release did, and every API read", async () => {
    // The answers are compared at the moment that release wrote them: the fixture's connector
    // tokens expire a day later, and after that a read renews them at the vendor, which is not
    // here. Only the clock moves; timers stay real.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(manifest.writtenAt), shouldAdvanceTime: true });
    const tokens = {} as Record<Who, string>;
    // That release's sessions have long expired; the people sign in again.
    for (const who of people) tokens[who] = (await startSession(open.db, manifest.world.ids[who], 600_000)).token;
    const answers = await answersOf(open, { ...manifest.world, tokens }, FIXTURE_IDLE_DAYS);

    const drafts = Object.keys(manifest.answers).filter((k) => k.startsWith("draft "));
    expect(drafts.length).toBeGreaterThan(0);
    for (const [key, then] of Object.entries(manifest.answers)) {
      expect(withoutAdditions(JSON.parse(JSON.stringify(answers.get(key) ?? null)), then), key).toEqual(then);
    }
    for (const [key, status] of Object.entries(manifest.apiStatus)) {
      const now = answers.get(key) as { status: number; body: unknown };
      expect(now.status, key).toBe(status);
      const e = endpoints.find((x) => key.split(" ")[2]!.split("?")[0]!.match(new RegExp(`^${x.path.replace(/:\w+/g, "[^/]+")}$`)));
      if (now.status === 200) expect(() => e!.response.parse(now.body), key).not.toThrow();
      else expect(errorEnvelope.parse(now.body).error, key).not.toBe("internal_error");
    }
    expect((answers.get("api csm /me") as { body: { email: string } }).body.email).toBe("csm@demo.test");
    // Trust from before its origin was recorded says so, for the person to review on /account.
    const trusted = await trustedAuthors(open.db, manifest.world.ids.member);
    expect(trusted.length).toBeGreaterThan(0);
    expect(trusted.map((t) => t.madeVia)).toEqual(trusted.map(() => "unrecorded"));
  }, 60_000);
});

/**
 * Fields this release adds to an answer that release gave, each named here with the value an old
 * row reads as: a render report kept before reports named their page parameters reads `params: {}`.
 * Only these, with only those values, are set aside; anything else that differs still fails.
 */
const ADDED_SINCE_FIXTURE: Readonly<Record<string, string>> = { params: "{}" };

function withoutAdditions(now: unknown, then: unknown): unknown {
  if (typeof now === "string" && typeof then === "string" && now !== then) {
    try {
      return JSON.stringify(withoutAdditions(JSON.parse(now), JSON.parse(then)));
    } catch {
      return now;
    }
  }
  if (Array.isArray(now) && Array.isArray(then)) return now.map((v, i) => withoutAdditions(v, then[i]));
  if (typeof now !== "object" || now === null || typeof then !== "object" || then === null || Array.isArray(then)) return now;
  const old = then as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(now)
      .filter(([k, v]) => k in old || ADDED_SINCE_FIXTURE[k] !== JSON.stringify(v))
      .map(([k, v]) => [k, withoutAdditions(v, old[k])]),
  );
}


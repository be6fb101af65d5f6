import { describe, expect, it } from "vitest";
import { DAILY_RETRY_MS, HUBSPOT_LIMITS, readHubspotLimit, SEARCH_PACE_SHARE, SearchPacer, searchIntervalMs } from "./client";

// How the client reads HubSpot's "slow down" answers, and how it spaces its searches.

const NOW = 1_800_000_000_000;

/** An answer as fetch hands it over: with the URL it came from. */
function answer(status: number, path: string, headers: Record<string, string> = {}): Response {
  const res = new Response("{}", { status, headers });
  Object.defineProperty(res, "url", { value: `https://api.hubapi.com${path}` });
  return res;
}
const search = "/crm/v3/objects/contacts/search";
const owners = "/crm/v3/owners";

describe("readHubspotLimit", () => {
  it("waits the window a 429 says is spent: X-HubSpot-RateLimit-Interval-Milliseconds when Remaining is 0", () => {
    const headers = { "x-hubspot-ratelimit-interval-milliseconds": "10000", "x-hubspot-ratelimit-max": "190", "x-hubspot-ratelimit-remaining": "0" };
    expect(readHubspotLimit(answer(429, owners, headers), NOW)).toEqual({ waitMs: 10_000, kind: "rate_limited", limit: "burst" });
    const searchHeaders = { "x-hubspot-ratelimit-interval-milliseconds": "1000", "x-hubspot-ratelimit-max": "4", "x-hubspot-ratelimit-remaining": "0" };
    expect(readHubspotLimit(answer(429, search, searchHeaders), NOW)).toEqual({ waitMs: 1_000, kind: "rate_limited", limit: "search" });
  });

  it("prefers Retry-After when one is sent, in seconds or as a date", () => {
    expect(readHubspotLimit(answer(429, owners, { "retry-after": "3", "x-hubspot-ratelimit-interval-milliseconds": "10000", "x-hubspot-ratelimit-remaining": "0" }), NOW)?.waitMs).toBe(3_000);
    expect(readHubspotLimit(answer(429, search, { "retry-after": new Date(NOW + 2_000).toUTCString() }), NOW)?.waitMs).toBe(2_000);
  });

  it("without headers, waits the window of the limit the request falls under: a second for a search, ten for the rest", () => {
    expect(readHubspotLimit(answer(429, search), NOW)).toEqual({ waitMs: 1_000, kind: "rate_limited", limit: "search" });
    // Under a path prefix, as the stand-in is mounted.
    expect(readHubspotLimit(answer(429, `/stand-ins/crmportal${search}`), NOW)?.limit).toBe("search");
    expect(readHubspotLimit(answer(429, "/crm/v4/associations/deals/companies/batch/read"), NOW)).toEqual({ waitMs: 10_000, kind: "rate_limited", limit: "burst" });
    // Remaining left in the window: the answer is not about that window; the request's own still applies.
    expect(readHubspotLimit(answer(429, owners, { "x-hubspot-ratelimit-interval-milliseconds": "10000", "x-hubspot-ratelimit-remaining": "12" }), NOW)?.waitMs).toBe(10_000);
  });

  it("names the daily limit when none of the day is left, and asks for far longer than a read is held", () => {
    const read = readHubspotLimit(answer(429, search, { "x-hubspot-ratelimit-daily": "650000", "x-hubspot-ratelimit-daily-remaining": "0" }), NOW);
    expect(read).toEqual({ waitMs: DAILY_RETRY_MS, kind: "rate_limited", limit: "daily" });
  });

  it("reads a 503 as HubSpot overloaded, with its Retry-After or a backoff, and nothing else as a limit", () => {
    expect(readHubspotLimit(answer(503, owners, { "retry-after": "2" }), NOW)).toEqual({ waitMs: 2_000, kind: "server", limit: "unavailable" });
    expect(readHubspotLimit(answer(503, owners), NOW)).toEqual({ waitMs: null, kind: "server", limit: "unavailable" });
    for (const status of [400, 401, 403, 404, 500, 502]) expect(readHubspotLimit(answer(status, search), NOW)).toBeNull();
  });
});

describe("SearchPacer", () => {
  /** A clock a test moves, as time passes between searches; a sleep wakes `early` ms before its time. */
  function fakeTime(early = () => 0) {
    let now = 0;
    const slept: number[] = [];
    const pacer = new SearchPacer(
      () => now,
      async (ms) => {
        slept.push(ms);
        const wake = now + ms - early();
        // Searches asked for together all take their slots before any sleeper wakes.
        await Promise.resolve();
        now = Math.max(now, wake);
      },
    );
    return { pacer, slept, advance: (ms: number) => (now += ms), at: () => now };
  }

  it("gives searches asked for at once consecutive slots, one interval apart", async () => {
    const t = fakeTime();
    const held = await Promise.all([t.pacer.take("a", 250), t.pacer.take("a", 250), t.pacer.take("a", 250)]);
    expect(held).toEqual([0, 250, 500]);
    expect(t.slept).toEqual([250, 500]);
  });

  it("keeps each token's slots apart from another's", async () => {
    const t = fakeTime();
    expect(await t.pacer.take("a", 250)).toBe(0);
    expect(await t.pacer.take("b", 250)).toBe(0);
    expect(await t.pacer.take("a", 250)).toBe(250);
  });

  it("holds nothing once an interval has passed", async () => {
    const t = fakeTime();
    await t.pacer.take("a", 250);
    t.advance(400);
    expect(await t.pacer.take("a", 250)).toBe(0);
  });

  it("sends no search before its slot, though its timer fires early", async () => {
    let first = true;
    const t = fakeTime(() => (first ? ((first = false), 40) : 0));
    await t.pacer.take("a", 250);
    expect(await t.pacer.take("a", 250)).toBe(250);
    expect(t.at()).toBe(250);
    expect(t.slept).toEqual([250, 40]);
  });

  it("moves the next slot past a wait HubSpot asked for", async () => {
    const t = fakeTime();
    await t.pacer.take("a", 250);
    t.pacer.holdFor("a", 1_250);
    expect(await t.pacer.take("a", 250)).toBe(1_250);
    expect(t.at()).toBe(1_250);
    // A shorter hold never brings a slot forward.
    t.pacer.holdFor("a", 10);
    expect(await t.pacer.take("a", 250)).toBe(250);
  });
});

describe("searchIntervalMs", () => {
  it("spends nine tenths of HubSpot's documented search limit unless told another", () => {
    expect(SEARCH_PACE_SHARE).toBe(0.9);
    expect(searchIntervalMs({ baseUrl: "https://api.hubapi.com" })).toBeCloseTo(1_000 / (HUBSPOT_LIMITS.searchesPerSecond * 0.9), 9);
    expect(searchIntervalMs({ baseUrl: "https://api.hubapi.com", searchesPerSecond: 10 })).toBeCloseTo(1_000 / 9, 9);
    expect(searchIntervalMs({ baseUrl: "https://api.hubapi.com", searchesPerSecond: Number.POSITIVE_INFINITY })).toBe(0);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardExamples } from "@/demo/examples";
import { analyseDraft } from "@/lib/check";
import { readAllowed } from "@/lib/check/reads";
import { renderAnswer, type RenderAnswer } from "@/lib/contract/renders";
import { fetchIdioms, idiomPage } from "../../fixtures/fetch-idioms";
import { ensureBuilt, startProduction, type ProductionServer } from "../support/production";

// The manifest against the code as it runs: each idiom of the corpus (and each example
// dashboard) is drawn by the service's own renderer on the production server, through the frame
// and broker a watcher gets, and the paths the broker relayed (or refused) must be the paths the
// static check read off the code, no more and no fewer.

beforeAll(() => ensureBuilt(), 900_000);

const DRAFT = "/dashboards/playground/draft";
const API_BASE = "/dashboards/playground/api";

/** The manifest's entry a fetched path is a read of; the path itself when none covers it. */
function entryOf(manifest: readonly string[], fetched: string): string {
  return manifest.find((p) => readAllowed([p], fetched)) ?? `(not in the manifest) ${fetched}`;
}

/** Every path the dashboard asked the broker for, relative to the API base, without the query. */
function fetchedPaths(answer: RenderAnswer): string[] {
  const relayed = answer.report.requests.map((r) => r.path);
  const refused = answer.report.refusals.filter((r) => r.method !== null).map((r) => (r.path.startsWith(`${API_BASE}/`) ? r.path.slice(API_BASE.length) : r.path));
  return [...relayed, ...refused].map((p) => p.replace(/[?#].*$/s, ""));
}

describe("the check's manifest, against what the renderer fetched", () => {
  let server: ProductionServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-manifest-"));
    server = await startProduction({
      DATA_DIR: dataDir,
      // The lanes below are two client addresses, each with its own page of the renderer's two.
      TRUSTED_PROXY: "127.0.0.1",
      RENDERER_CONCURRENCY: "2",
      RENDERER_QUEUE: "8",
      PLAYGROUND_RENDERS_PER_MIN: "1000",
      PLAYGROUND_CREATES_PER_MIN: "1000",
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function rendered(html: string, client: string): Promise<RenderAnswer | string> {
    const created = await fetch(`${server.url}${DRAFT}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ html }) });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const res = await fetch(`${server.url}${DRAFT}/${id}/render`, { method: "POST", headers: { "x-forwarded-for": client } });
    if (res.status !== 200) return `render ${res.status}: ${await res.text()}`;
    return renderAnswer.parse(await res.json());
  }

  const cases = [
    ...fetchIdioms.map((i) => ({ name: i.name, html: idiomPage(i) })),
    ...dashboardExamples.map((e) => ({ name: `example ${e.id}`, html: e.html })),
  ];

  it(`equals the paths fetched, for ${fetchIdioms.length} idioms and ${dashboardExamples.length} example dashboards`, async () => {
    const mismatches: string[] = [];
    // Two lanes, one for each of the renderer's pages: an address gets one page of two (its fair
    // share), so each lane is an address of its own, and takes the next case as soon as its last
    // one is drawn, so a slow case holds up only its own lane.
    let next = 0;
    const lane = async (client: string) => {
      for (let c = cases[next++]; c; c = cases[next++]) {
        const { reads } = analyseDraft(c.html);
        const answer = await rendered(c.html, client);
        if (typeof answer === "string") {
          mismatches.push(`${c.name}: ${answer}`);
          continue;
        }
        if (answer.report.errors.length > 0 || !answer.report.settled) {
          mismatches.push(`${c.name}: did not run cleanly: ${JSON.stringify(answer.report)}`);
          continue;
        }
        const fetched = fetchedPaths(answer);
        const seen = [...new Set(fetched.map((p) => entryOf(reads.paths, p)))].sort();
        if (JSON.stringify(seen) !== JSON.stringify(reads.paths) || !reads.complete) {
          mismatches.push(`${c.name}: the check read ${JSON.stringify(reads)}, the broker saw ${JSON.stringify(fetched)}`);
        }
      }
    };
    await Promise.all([lane("198.51.100.1"), lane("198.51.100.2")]);
    mismatches.sort();
    expect(mismatches).toEqual([]);
  }, 600_000);
});

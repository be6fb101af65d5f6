import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderAnswer } from "@/lib/contract/renders";
import { ensureBuilt, startProduction, type ProductionServer } from "../support/production";

// The renderer's shares on the production server (npm start), at its default bounds (2 pages, 8
// waiting): one address flooding it with dashboards that hold their page takes its share and is
// refused past it, and a render asked for from another address meanwhile is drawn at once. The
// address is the one every limit counts: the flood comes from ten IPv6 addresses of one /64.

beforeAll(() => ensureBuilt(), 900_000);

const DRAFT = "/dashboards/playground/draft";

describe("the renderer's shares, on the production server", () => {
  let server: ProductionServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-renderer-shares-"));
    server = await startProduction({
      DATA_DIR: dataDir,
      TRUSTED_PROXY: "127.0.0.1",
      RENDERER_CONCURRENCY: "2",
      RENDERER_QUEUE: "8",
      RENDERER_TIMEOUT_MS: "20000",
      PLAYGROUND_CREATES_PER_MIN: "100",
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function create(html: string): Promise<string> {
    const res = await fetch(`${server.url}${DRAFT}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ html }) });
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }
  const render = (id: string, address: string) => fetch(`${server.url}${DRAFT}/${id}/render`, { method: "POST", headers: { "x-forwarded-for": address } });

  it("draws another address's render at once while one address floods it, and refuses the flood past its share", async () => {
    // Each reads, then navigates its frame away: its page is held until the renderer ends it.
    const flood = await Promise.all(
      Array.from({ length: 10 }, (_, i) => create(`<!doctype html><p>${i}</p><script>fetch(window.DASHBOARD_API_BASE + "/me").then(() => { location.href = "/dashboards/frame"; });</script>`)),
    );
    const index = new Map(flood.map((id, i) => [id, i + 1]));
    const victim = await create(`<!doctype html><title>victim</title><p>drawn</p>`);

    const answered: { at: number; status: number; body: { error?: string; hint?: string } }[] = [];
    // An address holds one of the two pages and two of the eight places in the queue: the rest of
    // the flood is refused as it arrives, and once those refusals are in, the flood is in place.
    const HELD = 3;
    let placed!: () => void;
    const inPlace = new Promise<void>((r) => (placed = r));
    const flooding = flood.map((id) =>
      render(id, `2001:db8:7:7::${index.get(id) ?? 0}`).then(async (res) => {
        answered.push({ at: Date.now(), status: res.status, body: (await res.json()) as { error?: string; hint?: string } });
        if (answered.filter((a) => a.status === 503).length === flood.length - HELD) placed();
      }),
    );
    await inPlace;
    const res = await render(victim, "2001:db8:9:9::1");
    const victimAt = Date.now();
    expect(res.status, await res.clone().text()).toBe(200);
    expect(renderAnswer.parse(await res.json()).report.settled).toBe(true);
    await Promise.all(flooding);

    const refused = answered.filter((a) => a.status === 503);
    const drawn = answered.filter((a) => a.status !== 503);
    // Past its share the flood was refused, in the envelope, saying whose share it was.
    expect(refused).toHaveLength(flood.length - HELD);
    for (const r of refused) {
      expect(r.body.error).toBe("renderer_busy");
      expect(r.body.hint).toMatch(/^Your address already has its share/);
    }
    // Within it, its renders were taken (and each ended as the renderer ends such a render).
    expect(drawn).toHaveLength(HELD);
    for (const d of drawn) expect(d.body.error, JSON.stringify(d)).toBe("render_timed_out");
    // The other address was served before any of the flood's renders was done.
    expect(victimAt).toBeLessThan(Math.min(...drawn.map((d) => d.at)));
  }, 120_000);
});

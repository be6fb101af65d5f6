import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RenderIdle, RenderTimeout } from "@/lib/renderer";
import { done, html, page, pageServer, renderer } from "./support";

// A render that waits on nothing (no request, no work) is ended early with its own error, a
// script that never yields is not mistaken for one (it meets the time limit), and dashboards that
// are slow because they compute, wait for an answer or pause between reads are drawn. The idle
// window is shortened here (IDLE_MS, 4 s in the service), and every slow case outlasts it.

const IDLE_MS = 1_500;

describe("the renderer's end for a render that waits on nothing", () => {
  let pages: Awaited<ReturnType<typeof pageServer>>;
  beforeAll(async () => {
    pages = await pageServer({
      // Computes for a while in short tasks, then draws: slow, but never idle.
      "/compute": (u) => ({
        body: html(`<p>compute</p><script>
const until = performance.now() + ${Number(u.searchParams.get("ms") ?? 3000)};
(function step() { const t = performance.now(); while (performance.now() - t < 30) {} if (performance.now() < until) setTimeout(step, 5); else { ${done} } })();
</script>`),
      }),
      // Waits for an answer that comes late, then draws: slow, but never idle.
      "/late": () => ({ body: html(`<p>late</p><script>fetch("/api/late").then((r) => r.text()).then(() => { ${done} });</script>`) }),
      // Reads, pauses without work, reads again, then draws.
      "/pause": () => ({ body: html(`<p>pause</p><script>fetch("/api/now").then(() => new Promise((r) => setTimeout(r, 600))).then(() => fetch("/api/now")).then(() => { ${done} });</script>`) }),
      // Never yields, on its own and in a frame drawn in a process of its own.
      "/spin": () => ({ body: html(`<p>spin</p><script>while (true) {}</script>`) }),
      "/spin-host": () => ({ body: html(`<p>host</p><iframe sandbox="allow-scripts" src="/spin"></iframe>`) }),
      // Never draws and does nothing.
      "/never": () => ({ body: html(`<p>never</p>`) }),
      // A host page whose sandboxed frame reads, then navigates itself to a page that does nothing:
      // the host waits for a frame that will never answer.
      "/stall": () => ({ body: html(`<p>host</p><iframe sandbox="allow-scripts" src="/stall-frame"></iframe>`) }),
      "/stall-frame": () => ({ body: html(`<script>fetch("/api/now").then(() => { location.href = "/blank"; });</script>`) }),
      "/blank": () => ({ body: html("") }),
      "/api/now": () => ({ body: String(Date.now()), type: "text/plain" }),
      "/api/late": () => ({ body: "late", type: "text/plain", delayMs: 2 * IDLE_MS }),
    });
  });
  afterAll(() => pages?.close());

  const outcome = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e,
    );

  it("ends a render that waits on nothing early, with its own error", async () => {
    const r = renderer(pages.origin, { timeoutMs: 20_000, idleMs: IDLE_MS });
    try {
      for (const path of ["/stall", "/never"]) {
        const err = await outcome(r.render(page(path), "198.51.100.20"));
        expect(err, path).toBeInstanceOf(RenderIdle);
        expect((err as Error).message, path).toMatch(/no request and no work/);
      }
    } finally {
      await r.close();
    }
  }, 90_000);

  it("does not take a script that never yields for one that waits: it meets the time limit", async () => {
    const r = renderer(pages.origin, { timeoutMs: 3 * IDLE_MS, idleMs: IDLE_MS });
    try {
      for (const path of ["/spin-host", "/spin"]) {
        const err = await outcome(r.render(page(path), "198.51.100.25"));
        expect(err, path).toBeInstanceOf(RenderTimeout);
        expect(err, path).not.toBeInstanceOf(RenderIdle);
      }
    } finally {
      await r.close();
    }
  }, 90_000);

  it("draws dashboards that are slow because they compute, wait for an answer, or pause between reads", async () => {
    const r = renderer(pages.origin, { timeoutMs: 20_000, idleMs: IDLE_MS });
    try {
      for (const path of [`/compute?ms=${2 * IDLE_MS}`, "/late", "/pause"]) {
        const drawn = await r.render(page(path), "198.51.100.30");
        expect(drawn.result, path).toBe("t");
      }
    } finally {
      await r.close();
    }
  }, 90_000);
});

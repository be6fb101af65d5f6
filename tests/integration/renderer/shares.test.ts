import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RendererBusy } from "@/lib/renderer";
import { done, html, page, pageServer, renderer } from "./support";

// Fair shares of the renderer: one address flooding it holds its share of pages and queue and is
// refused past it at once, and another address's render is drawn at once, before any of the
// flood's is done.

describe("the renderer's shares of pages and queue", () => {
  let pages: Awaited<ReturnType<typeof pageServer>>;
  beforeAll(async () => {
    pages = await pageServer({
      "/quick": () => ({ body: html(`<p>quick</p><script>${done}</script>`) }),
      // Keeps reading every 200 ms and never draws: holds its page until the time limit.
      "/hold": () => ({ body: html(`<p>hold</p><script>setInterval(() => fetch("/api/now"), 200);</script>`) }),
      "/api/now": () => ({ body: String(Date.now()), type: "text/plain" }),
    });
  });
  afterAll(() => pages?.close());

  it("gives each address its share: a flood from one leaves another's render drawn at once", async () => {
    const r = renderer(pages.origin, { timeoutMs: 6_000 });
    try {
      const settled: { at: number; busy: boolean }[] = [];
      const flood = Array.from({ length: 10 }, () =>
        r.render(page("/hold"), "198.51.100.7").then(
          () => settled.push({ at: Date.now(), busy: false }),
          (err: unknown) => settled.push({ at: Date.now(), busy: err instanceof RendererBusy && err.reason === "share" }),
        ),
      );
      // A render is given its page, its place in the queue or its refusal as it is asked for: by
      // the next turn of the event loop every refusal has been told.
      await new Promise((resolve) => setImmediate(resolve));
      expect(r.busy.running + r.busy.waiting).toBe(10 - settled.length);
      const refusedAtOnce = settled.filter((s) => s.busy).length;
      const drawn = await r.render(page("/quick"), "203.0.113.9");
      const victimAt = Date.now();
      expect(drawn.result).toBe("t");
      await Promise.all(flood);

      const held = settled.filter((s) => !s.busy);
      // The flood's own renders: some taken (each until its time limit), the rest refused at once.
      expect(held.length).toBeGreaterThan(0);
      expect(refusedAtOnce).toBe(10 - held.length);
      // The other address was served before any render of the flood was done.
      expect(victimAt).toBeLessThan(Math.min(...held.map((s) => s.at)));
    } finally {
      await r.close();
    }
  }, 90_000);
});

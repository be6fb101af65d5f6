import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RenderTimeout, RendererBusy } from "@/lib/renderer";
import { CANARY_PATH, LoopbackListeners, describeCounts, reached, type ListenerTarget } from "../../../e2e/support/listeners";
import { pngSize } from "../../../e2e/support/png";
import { done, html, page, pageServer, renderer } from "./support";

// The renderer's picture of an inert document: a PNG at the viewport's width and the document's
// whole height (capped), under the renderer's pages, shares and time limit. What it is handed is
// pictured with no script run and no request sent, even when the document is not inert at all.

// As an inert document does (lib/inert), it names its viewport: a phone lays it out at its own width.
const tall = (px: number, extra = "") => `<!doctype html><html><head><meta name="viewport" content="width=device-width"><style>body{margin:0}div{height:${px}px;background:linear-gradient(#36c,#c63)}</style></head><body><div></div>${extra}</body></html>`;

describe("the renderer's picture of a document", () => {
  const listeners = new LoopbackListeners();
  let target: ListenerTarget;
  let pages: Awaited<ReturnType<typeof pageServer>>;
  let r: ReturnType<typeof renderer>;

  beforeAll(async () => {
    target = await listeners.target("picture");
    pages = await pageServer({ "/quick": () => ({ body: html(`<p>quick</p><script>${done}</script>`) }) });
    r = renderer(pages.origin);
  });
  afterAll(async () => {
    await r?.close();
    await listeners.close();
    await pages?.close();
  });

  it("is a PNG at the desktop or phone width and the document's whole height", async () => {
    const desktop = await r.picture({ html: tall(2_000), viewport: "desktop", client: "198.51.100.1" });
    expect(desktop.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect(pngSize(desktop)).toEqual({ width: 1280, height: 2_000 });
    const phone = await r.picture({ html: tall(1_500), viewport: "phone", client: "198.51.100.1" });
    expect(pngSize(phone)).toEqual({ width: 390, height: 1_500 });
    // Shorter than the viewport: the viewport's height.
    expect(pngSize(await r.picture({ html: tall(100), viewport: "desktop", client: "198.51.100.1" }))).toEqual({ width: 1280, height: 800 });
  }, 60_000);

  it("stops at 20,000 pixels however tall the document is", async () => {
    expect(pngSize(await r.picture({ html: tall(50_000), viewport: "phone", client: "198.51.100.1" }))).toEqual({ width: 390, height: 20_000 });
  }, 60_000);

  it("runs no script and sends no request, even for a document that is not inert", async () => {
    const { tcpPort, tlsPort, httpOrigin } = target;
    const hex = Date.now().toString(16);
    const hostile = tall(
      900,
      `<script>document.querySelector("div").style.height = "4000px"; fetch("${httpOrigin}/script")</script>
<img src="${httpOrigin}/img"><img src="https://img-${hex}.leak.test:${tlsPort}/i.png">
<link rel="stylesheet" href="${httpOrigin}/style.css"><style>p{background:url(${httpOrigin}/css)}@font-face{font-family:x;src:url(${httpOrigin}/font)}body{font-family:x}</style><p>text</p>
<iframe src="${httpOrigin}/frame"></iframe><iframe srcdoc="<img src='${httpOrigin}/srcdoc'>"></iframe>
<meta http-equiv="refresh" content="0;url=${httpOrigin}/refresh"><link rel="preconnect" href="https://pre-${hex}.leak.test:${tlsPort}"><link rel="prefetch" href="http://127.0.0.1:${tcpPort}/prefetch">
<object data="${httpOrigin}/object"></object><video poster="${httpOrigin}/poster"></video>`,
    );
    const png = await r.picture({ html: hostile, viewport: "desktop", client: "198.51.100.2" });
    // The script would have made the document 4,000 pixels tall.
    expect(pngSize(png).height).toBeGreaterThan(900);
    expect(pngSize(png).height).toBeLessThan(2_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const token = `picture-${Date.now()}`;
    const heard = listeners.canary("picture", token);
    await new Promise<void>((resolve, reject) => {
      const s = net.connect(tcpPort, "127.0.0.1", () => s.write(`GET ${CANARY_PATH}${token} HTTP/1.1\r\nhost: x\r\n\r\n`));
      s.resume();
      s.on("close", () => resolve());
      s.on("error", reject);
    });
    await heard;
    const counts = listeners.counts("picture");
    expect(reached(counts), describeCounts(counts)).toBe(false);
  }, 60_000);

  it("takes its address's share of pages as a render does, and its time limit", async () => {
    const one = renderer(pages.origin, { concurrency: 1, queue: 0 });
    try {
      const first = one.picture({ html: tall(500), viewport: "desktop", client: "203.0.113.5" });
      await expect(one.picture({ html: tall(500), viewport: "desktop", client: "203.0.113.5" })).rejects.toBeInstanceOf(RendererBusy);
      await expect(one.render(page("/quick"), "203.0.113.5")).rejects.toBeInstanceOf(RendererBusy);
      expect(pngSize(await first).width).toBe(1280);
    } finally {
      await one.close();
    }
    const hasty = renderer(pages.origin, { timeoutMs: 1 });
    try {
      await expect(hasty.picture({ html: tall(500), viewport: "desktop", client: "203.0.113.5" })).rejects.toBeInstanceOf(RenderTimeout);
    } finally {
      await hasty.close();
    }
  }, 60_000);
});

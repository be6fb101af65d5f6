// Pictures of the key pages at a desktop and a phone width, from the production build in Debian's
// Chromium, for reviewing a change by eye: `npm run screenshots` writes
// docs/screenshots/<page>-<width>.png and docs/screenshots/index.md, which links them.
//
//   npm run screenshots -- [--port 3560] [--only editor,watch]   (--only leaves index.md as it is)
//
// Each page is taken after it has settled: loaded, the network idle (or 5 s, as a page holding an
// event stream never is), and where a dashboard renders, the dashboard's own content in its frame.
// A picture is the window a person first sees (1440×900 or 390×844): what the design is judged
// on (the header, the toolbar, where the data starts), and small enough as PNG to keep in the
// repository (a full page of the API reference is tens of thousands of pixels tall).
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { root, startServerAndBrowser } from "../bench/server.mjs";

const { values: args } = parseArgs({ options: { port: { type: "string", default: "3560" }, only: { type: "string" } } });
const port = Number(args.port);
const base = `http://127.0.0.1:${port}`;
const outDir = path.join(root, "docs", "screenshots");
const widths = [
  { name: "desktop", viewport: { width: 1440, height: 900 } },
  { name: "phone", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
];

const watchable = `<!doctype html>
<title>CRM pipeline</title>
<h1>CRM pipeline</h1>
<p>Signed in as <span id="email">…</span></p>
<script>
  const API = window.DASHBOARD_API_BASE || "/api";
  fetch(API + "/me").then((r) => r.json()).then((me) => { document.getElementById("email").textContent = me.email; });
</script>`;

// One line per picture: `as` signs a demo person in first; `settle` names what to wait for;
// `only` takes it at one width; `act` brings the page into the state pictured.

const shots = [
  { name: "signin", path: "/signin" },
  { name: "landing", path: "/", as: "csm@demo.test" },
  { name: "editor", path: "/dashboards/playground", settle: "preview" },
  {
    name: "editor-preview",
    path: "/dashboards/playground",
    settle: "preview",
    only: "phone",
    act: async (page) => {
      await page.getByRole("radio", { name: "Preview", exact: true }).check();
      await page.frameLocator('iframe[title="Dashboard preview"]').locator("h1").first().waitFor({ timeout: 30_000 });
    },
  },
  { name: "watch", path: (ctx) => ctx.watchPath, settle: "frame" },
  { name: "docs", path: "/docs" },
  { name: "connections", path: "/connections", as: "member@demo.test" },
  { name: "saved-dashboard", path: "/~/csm/my-book", as: "csm@demo.test", settle: "frame" },
  { name: "saved-as-member", path: "/~/csm/my-book", as: "member@demo.test" },
  { name: "space", path: "/~/csm", as: "csm@demo.test" },
  { name: "not-found", path: "/no-such-page" },
].filter((s) => !args.only || args.only.split(",").includes(s.name));

fs.mkdirSync(outDir, { recursive: true });
// The headless shell, as the end-to-end suites use: the full browser's own layer (prerendering
// the page a link points at) swapped a saved dashboard's page from under the capture.
const browserPath = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell";
const { browser, stop } = await startServerAndBrowser({ name: "screenshots", port, browserPath });
const taken = [];
try {
  const created = await fetch(`${base}/dashboards/playground/draft`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ html: watchable }),
  });
  if (created.status !== 201) throw new Error(`draft creation answered ${created.status}`);
  const ctx = { watchPath: new URL((await created.json()).watchUrl).pathname };

  for (const shot of shots) {
    for (const width of widths) {
      const { name: widthName, ...options } = width;
      if (shot.only && shot.only !== widthName) continue;
      const context = await browser.newContext({ ...options, baseURL: base });
      if (shot.as) {
        const res = await context.request.post("/signin/demo", {
          form: { email: shot.as, next: "/signin" },
          headers: { origin: base, "sec-fetch-site": "same-origin" },
          maxRedirects: 0,
        });
        if (res.status() !== 303) throw new Error(`sign-in as ${shot.as} answered ${res.status()}`);
      }
      const page = await context.newPage();
      const target = typeof shot.path === "function" ? shot.path(ctx) : shot.path;
      await page.goto(target, { waitUntil: "load" });
      // A page that holds an event stream open never goes quite idle: wait a while, not forever.
      await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => {});
      // The editor's preview says it is rendering until the dashboard's first render report.
      // On a phone the code pane is shown first and the preview waits, hidden, behind its tab.
      if (shot.settle === "preview") {
        await page.locator('[data-testid="preview-stage"][aria-busy="false"]').waitFor({ state: "attached", timeout: 30_000 });
        // CodeMirror replaces the plain text area once its packages have loaded, after the page is
        // drawn; in the phone layout only when the source is touched, so a phone shot shows the text area.
        const phone = options.viewport.width <= 640;
        await page.locator(phone ? '[data-testid="early-source"]' : ".cm-content").waitFor({ state: "attached", timeout: 30_000 });
      }
      if (shot.settle === "frame") {
        await page.frameLocator('[data-testid="dashboard-frame"]').first().locator("body *").first().waitFor({ timeout: 30_000 });
        await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => {});
      }
      if (shot.act) await shot.act(page);
      const file = `${shot.name}-${widthName}.png`;
      const size = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }));
      // The shot is taken once every frame has drawn: a dashboard's frame is a process of its own.
      // A frame that runs no script (the safe view's drawing) never answers: it is waited for no longer.
      for (const frame of page.frames()) {
        const drawn = frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))).catch(() => {});
        await Promise.race([drawn, new Promise((r) => setTimeout(r, 2_000))]);
      }
      await page.screenshot({ path: path.join(outDir, file), type: "png" });
      taken.push({ shot: shot.name, width: widthName, file, path: target, size });
      console.log(`${file.padEnd(34)} ${target.padEnd(44)} ${size.width}×${size.height}`);
      await context.close();
    }
  }
} finally {
  await stop();
}

// A partial run (--only) refreshes its pictures and leaves the index of the full set alone.
if (args.only) process.exit(0);
// Pictures of an earlier set (another name or format) go, so the folder is what the index lists.
for (const name of fs.readdirSync(outDir)) {
  if (/\.(png|jpe?g)$/.test(name) && !taken.some((t) => t.file === name)) fs.rmSync(path.join(outDir, name));
}
const rows = taken.map((t) => `| ${t.shot} | ${t.width} | \`${t.path.replace(/watch\/[^/?]+/, "watch/<id>")}\` | ${t.size.width}×${t.size.height} | [${t.file}](${t.file}) |`);
fs.writeFileSync(
  path.join(outDir, "index.md"),
  [
    "# Screenshots",
    "",
    `Made by \`npm run screenshots\` on ${new Date().toISOString().slice(0, 10)}: the production build in Chromium, at 1440×900 (desktop) and 390×844 (phone), each the first screen a person sees (the page's whole size is in the table).`,
    "",
    "| page | width | path | page size (px) | picture |",
    "|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n"),
);
process.exit(0);

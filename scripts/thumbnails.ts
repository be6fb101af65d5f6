// The gallery's pictures: each example rendered under demo data by the production build in
// Chromium, at desktop width, scaled to a card. `npm run thumbnails` writes
// public/examples/<id>.png and demo/examples/thumbnails.json (each picture's size and its
// example's HTML hash); scripts/thumbnails.test.ts fails when an example changed and its picture
// did not.
//
// They are made ahead and kept in the repository, not at build or first start, so `npm start`
// needs no browser and every instance serves the same bytes (cached by their hash).
import fs from "node:fs";
import path from "node:path";
import { dashboardExamples } from "../demo/examples";
import { exampleHash } from "../demo/examples/thumbnail-hash";
import { root, startServerAndBrowser } from "../bench/server.mjs";

const port = Number(process.env.THUMBNAILS_PORT ?? 3570);
const base = `http://127.0.0.1:${port}`;
const outDir = path.join(root, "public", "examples");
/** The dashboard is laid out at this size and the picture scaled by SCALE. */
const RENDER = { width: 1280, height: 800 };
const SCALE = 0.25;

fs.mkdirSync(outDir, { recursive: true });
const { browser, stop } = await startServerAndBrowser({ name: "thumbnails", port });
const manifest: Record<string, { file: string; hash: string; width: number; height: number }> = {};
try {
  for (const example of dashboardExamples) {
    const created = await fetch(`${base}/dashboards/playground/draft`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ html: example.html }),
    });
    if (created.status !== 201) throw new Error(`draft creation answered ${created.status}`);
    const { watchUrl } = (await created.json()) as { watchUrl: string };
    // The static render marks itself rendered once the dashboard has settled (render-latch.tsx).
    const context = await browser.newContext({ viewport: { width: RENDER.width + 64, height: RENDER.height + 400 } });
    const page = await context.newPage();
    await page.goto(`${base}${new URL(watchUrl).pathname}?static=1`);
    await page.locator('[data-rendered="true"]').waitFor({ timeout: 60_000 });
    const frame = page.locator('[data-testid="dashboard-frame"]').first();
    await frame.evaluate((el, size) => Object.assign((el as HTMLElement).style, { width: `${size.width}px`, height: `${size.height}px` }), RENDER);
    await page.waitForTimeout(300);
    const full = await frame.screenshot({ type: "png" });
    await context.close();

    // Scaled down in a page of its own, so no image library is needed.
    const scaler = await browser.newContext({ viewport: { width: RENDER.width * SCALE, height: RENDER.height * SCALE } });
    const img = await scaler.newPage();
    await img.setContent(
      `<body style="margin:0"><img style="display:block;width:${RENDER.width * SCALE}px;height:${RENDER.height * SCALE}px" src="data:image/png;base64,${full.toString("base64")}"></body>`,
    );
    await img.locator("img").evaluate((el) => (el as HTMLImageElement).decode());
    const file = `${example.id}.png`;
    await img.screenshot({ path: path.join(outDir, file), type: "png" });
    await scaler.close();
    manifest[example.id] = { file, hash: exampleHash(example.html), width: RENDER.width * SCALE, height: RENDER.height * SCALE };
    console.log(`${file.padEnd(24)} ${fs.statSync(path.join(outDir, file)).size} bytes`);
  }
} finally {
  await stop();
}
fs.writeFileSync(path.join(root, "demo", "examples", "thumbnails.json"), `${JSON.stringify(manifest, null, 2)}\n`);
process.exit(0);

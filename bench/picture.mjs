// The safe view's picture (GET /~/<handle>/<slug>/drawn.png) on the production build, beside the
// drawing it is made from (GET …/drawn), in the same run:
//
// (a) the drawing of a new revision (nothing remembered): the baseline, p50 and p99;
// (b) its picture once the drawing is remembered: what "Download picture" adds to a shown drawing;
// (c) the picture of a new revision asked first (the drawing and its picture together);
// (d) the same picture asked again (remembered beside its drawing).
//
//   npm run bench:picture -- [--port 3570] [--rounds 12] [--warmup 2] [--out picture.png]
//
// The owner (csm) saves a new revision of the district health example (25 rows, a table of
// sparklines, one API read) before each round, and another person (the admin, who may read the CX views) asks, so every
// drawing is someone else's dashboard on the admin's own data.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ensureBuild } from "../scripts/start.mjs";
import { root, startServer } from "./server.mjs";

const { values: args } = parseArgs({
  options: {
    port: { type: "string", default: "3570" },
    rounds: { type: "string", default: "12" },
    warmup: { type: "string", default: "2" },
    // Where to write the last picture, to look at.
    out: { type: "string" },
  },
});
const port = Number(args.port);
const base = `http://127.0.0.1:${port}`;
const rounds = Number(args.rounds);
const warmup = Number(args.warmup);

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (ms) => `${ms.toFixed(0)} ms`;

async function exampleHtml() {
  const { districtHealthExample } = await import("../demo/examples/index.ts");
  return districtHealthExample;
}

/** A demo person's session cookie, and the CSRF token their pages carry. */
async function signIn(email) {
  const res = await fetch(`${base}/signin/demo`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `email=${encodeURIComponent(email)}`, redirect: "manual" });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("dd_session="))?.split(";")[0];
  if (res.status !== 303 || !cookie) throw new Error(`demo sign-in as ${email} answered ${res.status}`);
  const page = await (await fetch(`${base}/dashboards/playground`, { headers: { cookie } })).text();
  const csrf = /csrf\\?":\\?"([A-Za-z0-9_-]+)/.exec(page)?.[1];
  if (!csrf) throw new Error(`no CSRF token on the playground page for ${email}`);
  return { cookie, csrf };
}

let address = 0;
/** Each request from an address of its own, so no share of the renderer is met. */
const from = () => ({ "x-forwarded-for": `198.19.${(++address >> 8) & 255}.${address & 255}` });

async function timed(url, headers, type) {
  const t = performance.now();
  const res = await fetch(url, { headers: { ...headers, ...from() } });
  const body = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - t;
  if (res.status !== 200 || !res.headers.get("content-type")?.startsWith(type)) throw new Error(`${url} answered ${res.status}: ${body.toString("utf8").slice(0, 300)}`);
  return { ms, body };
}

ensureBuild();
const dataDir = path.join(root, ".data", "bench-picture");
fs.rmSync(dataDir, { recursive: true, force: true });
const stop = await startServer({ port, dataDir, readyPath: "/signin", env: { TRUSTED_PROXY: "127.0.0.1" } });
try {
  const html = await exampleHtml();
  const owner = await signIn("csm@demo.test");
  const viewer = await signIn("admin@demo.test");
  const slug = "bench-picture";
  let n = 0;
  const save = async () => {
    const res = await fetch(`${base}/~/csm/${slug}`, {
      method: "POST",
      headers: { "content-type": "text/html", cookie: owner.cookie, "x-csrf-token": owner.csrf, "sec-fetch-site": "same-origin", origin: base },
      // A comment makes each revision's document its own.
      body: `${html}\n<!-- ${n++} -->`,
    });
    if (res.status !== 200 && res.status !== 201) throw new Error(`saving answered ${res.status}: ${await res.text()}`);
    return (await res.json()).revision;
  };
  const at = (revision, png) => `${base}/~/csm/${slug}/drawn${png ? ".png" : ""}?viewport=desktop&revision=${revision}`;
  const asViewer = { cookie: viewer.cookie };

  const drawing = [];
  const picture = [];
  const both = [];
  const again = [];
  let bytes = 0;
  for (let i = 0; i < warmup + rounds; i++) {
    // (a) and (b): the drawing, then its picture.
    const r1 = await save();
    const d = await timed(at(r1, false), asViewer, "application/json");
    if (JSON.parse(d.body.toString("utf8")).remembered) throw new Error("a new revision's drawing was remembered");
    const p = await timed(at(r1, true), asViewer, "image/png");
    // (c) and (d): a new revision's picture asked first, then again.
    const r2 = await save();
    const b = await timed(at(r2, true), asViewer, "image/png");
    const a = await timed(at(r2, true), asViewer, "image/png");
    if (Buffer.compare(a.body, b.body) !== 0) throw new Error("the remembered picture differs");
    if (i >= warmup) {
      drawing.push(d.ms);
      picture.push(p.ms);
      both.push(b.ms);
      again.push(a.ms);
      bytes = p.body.byteLength;
      if (args.out) fs.writeFileSync(args.out, p.body);
    }
  }
  const p50 = percentile(drawing, 50);
  const p99 = percentile(drawing, 99);
  const row = (name, xs) => [name, fmt(percentile(xs, 50)), fmt(percentile(xs, 99)), (percentile(xs, 50) / p50).toFixed(2), (percentile(xs, 99) / p99).toFixed(2)];
  const rows = [
    ["", "p50", "p99", "p50 ÷ drawing", "p99 ÷ drawing"],
    row("drawing, new revision (baseline)", drawing),
    row("picture of the remembered drawing", picture),
    row("picture, new revision (drawing and picture)", both),
    row("picture asked again (remembered)", again),
  ];
  console.log(`\nthe district health example at 1280×800 as another person, ${rounds} rounds after ${warmup} warm-up; a picture of ${(bytes / 1024).toFixed(0)} KB\n`);
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
} finally {
  await stop();
}

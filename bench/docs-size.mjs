// The API reference's weight per page: HTML bytes of /docs and of each /docs/<section> page,
// raw and gzip (zlib, default level), with their element counts, and the search index the pages
// fetch on first use. The limit is 250 KB of HTML per page (e2e/docs.spec.ts holds it too).
//
//   node bench/docs-size.mjs [--port 3560]
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { parseArgs } from "node:util";
import { ensureBuild } from "../scripts/start.mjs";
import { root, startServer } from "./server.mjs";

const { values: args } = parseArgs({ options: { port: { type: "string", default: "3560" } } });
const port = Number(args.port);
const base = `http://127.0.0.1:${port}`;
const LIMIT = 250_000;

ensureBuild();
const dataDir = path.join(root, ".data", "bench-docs-size");
fs.rmSync(dataDir, { recursive: true, force: true });
const stop = await startServer({ port, dataDir, readyPath: "/docs" });
try {
  const sections = [...(await (await fetch(`${base}/docs`)).text()).matchAll(/data-section-link="([a-z-]+)"/g)].map((m) => m[1]);
  const rows = [];
  for (const p of ["/docs", ...sections.map((s) => `/docs/${s}`)]) {
    const html = Buffer.from(await (await fetch(`${base}${p}`)).arrayBuffer());
    const elements = (html.toString("utf8").match(/<[a-zA-Z][a-zA-Z0-9-]*/g) ?? []).length;
    rows.push({ path: p, bytes: html.byteLength, gzip: zlib.gzipSync(html).byteLength, elements });
  }
  const index = Buffer.from(await (await fetch(`${base}/docs/search.json`)).arrayBuffer());
  const kb = (n) => (n / 1000).toFixed(1);
  console.log("| page | HTML KB | HTML KB gzip | elements | within 250 KB |");
  console.log("|---|---|---|---|---|");
  for (const r of rows) console.log(`| \`${r.path}\` | ${kb(r.bytes)} | ${kb(r.gzip)} | ${r.elements} | ${r.bytes <= LIMIT ? "yes" : "NO"} |`);
  const entries = JSON.parse(index.toString("utf8")).entries.length;
  console.log(`| search index \`/docs/search.json\` (${entries} entries) | ${kb(index.byteLength)} | ${kb(zlib.gzipSync(index).byteLength)} | – | – |`);
  const worst = rows.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  console.log(`\nLargest page: ${worst.path}, ${kb(worst.bytes)} KB (${kb(worst.gzip)} KB gzip).`);
  process.exitCode = rows.every((r) => r.bytes <= LIMIT) ? 0 : 1;
} finally {
  await stop();
}

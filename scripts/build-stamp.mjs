// Decides whether the production build in .next is older than the sources that made it.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const inputs = ["app", "lib", "components", "demo", "public", "next.config.mjs", "proxy.ts", "instrumentation.ts", "package-lock.json", "tsconfig.json"];

function walk(p, out) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return;
  }
  if (st.isDirectory()) {
    for (const name of fs.readdirSync(p).sort()) walk(path.join(p, name), out);
  } else {
    out.push(`${p}:${st.size}:${st.mtimeMs}`);
  }
}

export function sourceStamp(root) {
  const lines = [];
  for (const i of inputs) walk(path.join(root, i), lines);
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

const stampFile = (root) => path.join(root, ".next", "source-stamp");

export function buildIsFresh(root) {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) return false;
  try {
    return fs.readFileSync(stampFile(root), "utf8") === sourceStamp(root);
  } catch {
    return false;
  }
}

export function recordBuild(root, stamp) {
  fs.writeFileSync(stampFile(root), stamp);
}

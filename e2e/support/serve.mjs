// Starts the production server for end-to-end tests on fresh storage (DATA_DIR is wiped first).
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";

const dataDir = process.env.DATA_DIR;
if (!dataDir || !dataDir.includes("e2e")) throw new Error("serve.mjs wants an e2e DATA_DIR");
fs.rmSync(path.resolve(dataDir), { recursive: true, force: true });
const child = spawn(process.execPath, ["scripts/start.mjs"], { stdio: "inherit", env: process.env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));

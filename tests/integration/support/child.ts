import { spawn } from "node:child_process";

// A command-line child run to its end without blocking the test worker: spawnSync would hold the
// worker's event loop for the child's whole run (seconds, for a TypeScript CLI), so the other
// files the worker is running, and its runner's calls, would wait on it too.

export interface ChildResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runChild(cmd: string, args: readonly string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
  });
}

import { describe, expect, it } from "vitest";
import type { LogFields } from "./log";
import { shutdownOnSignal, type ShutdownDeps } from "./shutdown";

function fakeEdge(inFlight: number) {
  let n = inFlight;
  const waiters: (() => void)[] = [];
  const calls: string[] = [];
  const edge: ShutdownDeps["edge"] = {
    inFlight: () => n,
    idle: () => (n === 0 ? Promise.resolve() : new Promise((r) => waiters.push(r))),
    stopAccepting: () => calls.push("stop accepting"),
    destroyConnections: () => calls.push("destroy"),
  };
  const finish = () => {
    n--;
    if (n === 0) for (const w of waiters.splice(0)) w();
  };
  return { edge, calls, finish };
}

const logger = (lines: [string, LogFields | undefined][]) => ({
  info: (m: string, f?: LogFields) => lines.push([m, f]),
  warn: (m: string, f?: LogFields) => lines.push([m, f]),
  error: (m: string, f?: LogFields) => lines.push([m, f]),
  debug: (m: string, f?: LogFields) => lines.push([m, f]),
});

describe("shutdown", () => {
  it("stops accepting, ends streams, waits for requests in flight, then closes and exits 0", async () => {
    const { edge, calls, finish } = fakeEdge(2);
    const lines: [string, LogFields | undefined][] = [];
    let exitCode: number | null = null;
    const run = shutdownOnSignal(
      {
        edge,
        graceMs: 60_000,
        log: logger(lines),
        endStreams: async () => {
          calls.push("end streams");
          finish();
          return 1;
        },
        close: async () => void calls.push("close"),
        exit: (code) => void (exitCode = code),
      },
      [],
    );
    const done = run();
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual(["stop accepting", "end streams"]);
    expect(exitCode).toBeNull();
    finish();
    await done;
    expect(calls).toEqual(["stop accepting", "end streams", "close"]);
    expect(exitCode).toBe(0);
    expect(run()).toBe(done);
  });

  it("tears down what is still in flight once the grace time is over, and still exits 0", async () => {
    const { edge, calls } = fakeEdge(1);
    const lines: [string, LogFields | undefined][] = [];
    let exitCode: number | null = null;
    await shutdownOnSignal({ edge, graceMs: 1, log: logger(lines), endStreams: async () => 0, close: async () => void calls.push("close"), exit: (c) => void (exitCode = c) }, [])();
    expect(calls).toEqual(["stop accepting", "destroy", "close"]);
    expect(lines.some(([, f]) => f?.phase === "grace expired")).toBe(true);
    expect(exitCode).toBe(0);
  });
});

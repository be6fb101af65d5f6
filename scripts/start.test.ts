import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ES module script, without types
import { jemallocPath, serverEnv } from "./start.mjs";

// The production server's environment, as `npm start` and the benchmarks give it.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-start-"));
const lib = path.join(dir, "libjemalloc.so.2");
fs.writeFileSync(lib, "");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the production server's environment", () => {
  it("is production, with the app's own SIGTERM handling", () => {
    const env = serverEnv({ PATH: "/bin", SERVER_ALLOCATOR: "system" });
    expect(env).toMatchObject({ PATH: "/bin", NODE_ENV: "production", NEXT_MANUAL_SIG_HANDLE: "1", NEXT_TELEMETRY_DISABLED: "1" });
  });

  it("preloads jemalloc where the system has it, returning idle pages within a second", () => {
    const env = serverEnv({ JEMALLOC_PATH: lib });
    expect(env.LD_PRELOAD).toBe(lib);
    expect(env.MALLOC_CONF).toBe("background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0");
  });

  it("keeps what is preloaded already, and an operator's MALLOC_CONF", () => {
    const env = serverEnv({ JEMALLOC_PATH: lib, LD_PRELOAD: "/opt/trace.so", MALLOC_CONF: "narenas:2" });
    expect(env.LD_PRELOAD).toBe(`${lib} /opt/trace.so`);
    expect(env.MALLOC_CONF).toBe("narenas:2");
  });

  it("stays on the system's malloc when told to, or when there is no jemalloc", () => {
    for (const given of [{ JEMALLOC_PATH: lib, SERVER_ALLOCATOR: "system" }, { JEMALLOC_PATH: path.join(dir, "missing.so") }]) {
      expect(jemallocPath(given)).toBeNull();
      const env = serverEnv(given);
      expect(env.LD_PRELOAD).toBeUndefined();
      expect(env.MALLOC_CONF).toBeUndefined();
    }
  });
});

import "server-only";
import { config } from "@/lib/config";
import { openDb, type Db, type OpenDb } from "@/lib/db";
import { createSealer, loadKeyMaterial, type Sealer } from "@/lib/crypto/secrets";
import { seedDemo } from "@/lib/seed";

// The process-wide storage handle: opened, migrated and (in the embedded default) seeded once.
// Kept on globalThis so that module reloads in development do not open a second handle.

const holder = globalThis as typeof globalThis & { __ddRuntime?: Promise<OpenDb>; __ddSealer?: Sealer };

/** The deployment's sealer for secrets at rest, cursors and stand-in tokens. */
export function appSealer(): Sealer {
  holder.__ddSealer ??= createSealer(loadKeyMaterial(config().secretKey, config().dataDir));
  return holder.__ddSealer;
}

export function runtime(): Promise<OpenDb> {
  if (!holder.__ddRuntime) {
    holder.__ddRuntime = boot().catch((err: unknown) => {
      holder.__ddRuntime = undefined;
      throw err;
    });
  }
  return holder.__ddRuntime;
}

export async function appDb(): Promise<Db> {
  return (await runtime()).db;
}

async function boot(): Promise<OpenDb> {
  const c = config();
  const open = await openDb(c.storage);
  if (c.demo.enabled) await seedDemo(open.db, { scale: c.demo.scale, sealer: appSealer(), upstreams: c.upstreams });
  return open;
}

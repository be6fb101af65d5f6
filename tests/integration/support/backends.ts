import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { parseConfig } from "@/lib/config";
import { createSealer } from "@/lib/crypto/secrets";
import { openDb, type OpenDb, type Storage } from "@/lib/db";

// Both storage engines, real ones: a SQLite file in a temp folder and a private schema on the
// PostgreSQL server. Tests run against each; a missing PostgreSQL fails loudly, never skips.

export const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface Backend {
  name: "sqlite" | "postgres";
  open(): Promise<OpenDb & { storage: Storage }>;
}

export const backends: Backend[] = [
  {
    name: "sqlite",
    async open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-test-"));
      const storage: Storage = { kind: "sqlite", file: path.join(dir, "app.sqlite") };
      const opened = await openDb(storage);
      return {
        ...opened,
        storage,
        close: async () => {
          await opened.close();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "postgres",
    async open() {
      const schema = `t_${randomBytes(6).toString("hex")}`;
      const storage: Storage = { kind: "postgres", url: PG_URL, schema };
      const opened = await openDb(storage);
      return {
        ...opened,
        storage,
        close: async () => {
          await opened.close();
          await dropSchema(schema);
        },
      };
    },
  },
];

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

/** Seed options for tests: a fixed key and every connector on its stand-in. */
export function testSeed(scale = 1) {
  return { scale, sealer: testSealer, upstreams: parseConfig({}).upstreams };
}
export const testSealer = createSealer("integration-test-key-".repeat(2));

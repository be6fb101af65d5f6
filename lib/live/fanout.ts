import "server-only";
import { createHash } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { z } from "zod";
import type { Db, OpenDb } from "@/lib/db";

// Draft updates reaching watchers on other app instances. On PostgreSQL each process keeps one
// dedicated connection that LISTENs on the deployment's channel; an update sends
// NOTIFY {id, revision} from inside its transaction, so the notice leaves exactly when the
// update commits (and never for one that rolls back). Receivers read the row themselves: the
// payload stays tiny whatever the size of the draft. On SQLite there is one process, and the
// updating request hands the new revision to the local hub directly.

/** `revision` 0: the draft is gone (deleted or expired). */
export interface DraftNote {
  id: string;
  revision: number;
}

export interface Fanout {
  /** Runs inside the writing transaction. */
  inTransaction(trx: Db, id: string, revision: number): Promise<void>;
  /** Tells other instances these drafts are gone, so they end their streams. */
  announceGone(ids: readonly string[]): Promise<void>;
  /** Resolves once this process hears other instances' updates. */
  ready(): Promise<void>;
  /** Whether the listening connection is up now (always, where there is no other instance). */
  listening(): boolean;
  close(): Promise<void>;
}

interface FanoutHandlers {
  onNote(note: DraftNote): void;
  /** After a lost listening connection is back: notices may have been missed meanwhile. */
  onResync(): void;
  log?(line: string): void;
}

const notePayload = z.object({ id: z.string().min(1).max(128), revision: z.number().int().min(0) });

/** The notice payload, if it is one of ours. */
export function parseNote(payload: string | undefined): DraftNote | null {
  if (!payload) return null;
  try {
    const parsed = notePayload.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Channels are per database, not per schema; deployments (and test runs) that share a database
 * in different schemas get a channel each. Channel names are identifiers (at most 63 bytes).
 */
export function channelFor(schema: string): string {
  return schema === "public" ? "draft_updates" : `draft_updates_${createHash("sha256").update(schema).digest("hex").slice(0, 16)}`;
}

export function createFanout(open: Pick<OpenDb, "db" | "dialect" | "pool">, handlers: FanoutHandlers): Fanout {
  const pool = open.pool;
  if (open.dialect !== "postgres" || !pool) {
    return {
      inTransaction: async () => {},
      announceGone: async () => {},
      ready: async () => {},
      listening: () => true,
      close: async () => {},
    };
  }
  return new PgFanout(open.db, pool, handlers);
}

class PgFanout implements Fanout {
  private channelName: Promise<string> | null = null;
  private client: pg.Client | null = null;
  private listenStarted: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private backoffMs = 500;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly pool: pg.Pool,
    private readonly handlers: FanoutHandlers,
  ) {}

  private channel(): Promise<string> {
    this.channelName ??= sql<{ schema: string }>`select current_schema() as schema`.execute(this.db).then(
      (r) => channelFor(r.rows[0]?.schema ?? "public"),
      (err: unknown) => {
        this.channelName = null;
        throw err;
      },
    );
    return this.channelName;
  }

  async inTransaction(trx: Db, id: string, revision: number): Promise<void> {
    const channel = await this.channel();
    await sql`select pg_notify(${channel}, ${JSON.stringify({ id, revision })})`.execute(trx);
  }

  async announceGone(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const channel = await this.channel();
    for (const id of ids) await sql`select pg_notify(${channel}, ${JSON.stringify({ id, revision: 0 })})`.execute(this.db);
  }

  ready(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.listenStarted ??= this.listen(false).catch((err: unknown) => {
      this.listenStarted = null;
      throw err;
    });
    return this.listenStarted;
  }

  private async listen(resync: boolean): Promise<void> {
    const channel = await this.channel();
    const client = new pg.Client(this.pool.options);
    client.on("notification", (message) => {
      if (message.channel !== channel) return;
      const note = parseNote(message.payload);
      if (note) this.handlers.onNote(note);
    });
    // A lost connection is replaced; until then other instances' updates are not heard.
    const lost = (why: string) => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => {});
      this.handlers.log?.(`draft listener lost (${why}); reconnecting`);
      this.scheduleReconnect();
    };
    client.on("error", (err) => lost(err.message));
    client.on("end", () => lost("connection ended"));
    try {
      await client.connect();
      await client.query(`listen "${channel}"`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.backoffMs = 500;
    if (resync) this.handlers.onResync();
  }

  listening(): boolean {
    return this.client !== null;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.listen(true).catch((err: unknown) => {
        this.handlers.log?.(`draft listener reconnect failed: ${err instanceof Error ? err.message : String(err)}`);
        this.backoffMs = Math.min(this.backoffMs * 2, 30_000);
        this.scheduleReconnect();
      });
    }, this.backoffMs);
    this.retryTimer.unref?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}

import "server-only";
import { z } from "zod";
import type { Config } from "@/lib/config";
import { REVISIONS_PAGE_BYTES } from "@/lib/contract/playground";
import { READ_BYTES_PER_SECOND } from "@/lib/limits/buckets";

// The playground's settings: its limits against abuse, how long drafts live, what they keep.

export interface PlaygroundSettings {
  /** Addresses or CIDR ranges of reverse proxies whose X-Forwarded-For is believed (TRUSTED_PROXY). */
  trustedProxy: string[];
  /** A draft not updated for this many days is deleted (DRAFT_IDLE_DAYS). */
  draftIdleDays: number;
  /** Revisions kept per draft, the current one included (DRAFT_HISTORY_KEEP). */
  historyKeep: number;
  /** Draft creations per client address per minute (PLAYGROUND_CREATES_PER_MIN). */
  createsPerMinute: number;
  /** Updates per draft per minute (PLAYGROUND_UPDATES_PER_MIN). */
  updatesPerMinute: number;
  /**
   * Open event streams to one draft from one client address, per instance
   * (PLAYGROUND_STREAMS_PER_DRAFT). Counted per address, so one client cannot lock out others.
   */
  streamsPerDraft: number;
  /** Open event streams per client address, per instance (PLAYGROUND_STREAMS_PER_ADDRESS). */
  streamsPerAddress: number;
  /** Open event streams per instance, a safety cap above what one address may hold (PLAYGROUND_STREAMS_TOTAL). */
  streamsTotal: number;
  /** Anonymous draft reads (GET draft, revisions, events) per client address per minute (PLAYGROUND_READS_PER_MIN). */
  readsPerMinute: number;
  /** Demo API reads per client address per minute (PLAYGROUND_DEMO_READS_PER_MIN). */
  demoReadsPerMinute: number;
  /** Bytes of large anonymous answers per second, per instance (PLAYGROUND_READ_MIB_PER_SEC); bursts to 3×. */
  readBytesPerSecond: number;
  /** Bytes of JSON after which a page of revisions stops (it always holds at least one). */
  revisionsPageBytes: number;
  /** Render reports per client address per minute (PLAYGROUND_REPORTS_PER_MIN). */
  reportsPerMinute: number;
  /** Server-side renders per client address per minute (PLAYGROUND_RENDERS_PER_MIN); answers already made are free. */
  rendersPerMinute: number;
  /** Server-side renders of one draft per minute, everyone together (PLAYGROUND_RENDERS_PER_DRAFT_PER_MIN). */
  rendersPerDraftPerMinute: number;
}

export const defaultPlaygroundSettings: PlaygroundSettings = {
  trustedProxy: [],
  draftIdleDays: 30,
  historyKeep: 50,
  createsPerMinute: 30,
  updatesPerMinute: 120,
  streamsPerDraft: 10,
  streamsPerAddress: 50,
  streamsTotal: 10_000,
  // A watch page or an editor reads the draft once per update it sees (at most 120 a minute per
  // draft), plus reconnects: 300 leaves room for a few tabs behind one address.
  readsPerMinute: 300,
  // The editor's state matrix renders one dashboard six times, each fetching its endpoints again
  // after every pause in typing.
  demoReadsPerMinute: 1200,
  readBytesPerSecond: READ_BYTES_PER_SECOND,
  revisionsPageBytes: REVISIONS_PAGE_BYTES,
  // One report per revision per page load: a watcher following an agent that pushes a revision
  // a second is the most one viewer sends.
  reportsPerMinute: 60,
  // A render costs a browser page for a second or more: an agent checking each revision at two
  // sizes and a few states is well inside these; a loop asking again and again is not.
  rendersPerMinute: 20,
  rendersPerDraftPerMinute: 30,
};

const count = z.number().int().min(1);
const settingsShape = z
  .object({
    trustedProxy: z.array(z.string()),
    draftIdleDays: count,
    historyKeep: count,
    createsPerMinute: count,
    updatesPerMinute: count,
    streamsPerDraft: count,
    streamsPerAddress: count,
    streamsTotal: count,
    readsPerMinute: count,
    demoReadsPerMinute: count,
    readBytesPerSecond: count,
    revisionsPageBytes: count,
    reportsPerMinute: count,
    rendersPerMinute: count,
    rendersPerDraftPerMinute: count,
  })
  .partial();

/**
 * The playground's settings: `config.playground` where the configuration carries them, the
 * defaults above otherwise.
 */
export function playgroundSettingsOf(config: Config): PlaygroundSettings {
  const fromConfig = settingsShape.safeParse(Reflect.get(config, "playground") ?? {});
  return { ...defaultPlaygroundSettings, ...(fromConfig.success ? fromConfig.data : {}) };
}

/** Refuses settings under which one client address alone could fill the instance's stream cap. */
export function checkStreamCaps(s: PlaygroundSettings): void {
  if (s.streamsTotal <= s.streamsPerAddress) {
    throw new Error(`streamsTotal (${s.streamsTotal}) must be above streamsPerAddress (${s.streamsPerAddress}), or one address could lock everyone out`);
  }
}

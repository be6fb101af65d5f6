import "server-only";
import { ApiError } from "@/lib/contract/errors";
import { sha256Hex } from "@/lib/auth/tokens";
import { eventOf, findDraft, noSuchDraft, type DraftContext } from "@/lib/drafts/drafts";
import type { Fanout } from "@/lib/live/fanout";
import type { Hub } from "@/lib/live/hub";
import { draftFrame } from "@/lib/live/sse";
import type { streamSlots } from "@/lib/limits/shared";
import type { PlaygroundSettings } from "./settings";

// A draft's event stream, opened for one watcher: within the stream caps of this instance and of
// every instance on the database, started at the revision the watcher has.

/** One open event stream, as the hub hands it over. */
export type Watch = Extract<ReturnType<Hub["open"]>, { ok: true }>["watch"];

const STREAM_RETRY_AFTER_S = 10;
const STREAMS_REFUSED_HINT = `No more event streams can be opened for you now; close one you have open, or retry in ${STREAM_RETRY_AFTER_S} s.`;

interface EventsDeps {
  ctx: DraftContext;
  hub: Hub;
  fanout: Fanout;
  slots: ReturnType<typeof streamSlots>;
  settings: PlaygroundSettings;
  refused: (limit: string) => void;
}

export function draftEvents({ ctx, hub, fanout, slots, settings, refused }: EventsDeps) {
  return async (readId: string, address: string, lastEventId: number | null): Promise<Watch> => {
    // Listening must be in place before the row is read, or an update on another instance
    // between the read and the LISTEN would never arrive.
    await fanout.ready();
    if (hub.closing) throw new ApiError("shutting_down", "This instance is shutting down; reconnect and you reach another.", { "retry-after": "1" });
    // The slot held across instances is given back however the stream ends, even while it is taken.
    let ended = false;
    let release: (() => void) | null = null;
    const opened = hub.open(
      readId,
      address,
      { perDraftPerAddress: settings.streamsPerDraft, perAddress: settings.streamsPerAddress, total: settings.streamsTotal },
      () => {
        ended = true;
        release?.();
        release = null;
      },
    );
    // One answer whichever cap was reached and however many watch, so it tells nothing.
    const streamsRefused = () => {
      refused("streams");
      return new ApiError("rate_limited", STREAMS_REFUSED_HINT, { "retry-after": String(STREAM_RETRY_AFTER_S) });
    };
    if (!opened.ok) throw streamsRefused();
    const watch = opened.watch;
    try {
      // The same caps across every instance on the database (the total stays per instance:
      // it bounds this process's memory).
      const slot = await slots.acquire([
        { bucket: "streams_address", key: address, cap: settings.streamsPerAddress },
        { bucket: "streams_draft", key: sha256Hex(`${readId} ${address}`), cap: settings.streamsPerDraft },
      ]);
      if (!slot) throw streamsRefused();
      if (ended) slot();
      else release = slot;
      const row = await findDraft(ctx, readId);
      if (!row) throw noSuchDraft(settings);
      watch.start(row.revision, () => draftFrame(eventOf(row)), lastEventId);
    } catch (err) {
      watch.close();
      throw err;
    }
    return watch;
  };
}

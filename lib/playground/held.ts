import "server-only";
import { ApiError } from "@/lib/contract/errors";
import { ByteBudget, InFlight } from "@/lib/limits/buckets";
import type { PlaygroundSettings } from "./settings";

// Large answers (a draft, a page of its revisions) are built while they hold one of the reader's
// (and the instance's) read slots, which the reader gives back with the last byte; and the bytes
// they send come out of the instance's read budget.

/** A large answer's JSON text, holding one of its reader's read slots until `release` (once its last byte is written). */
export interface HeldJson {
  bytes: Uint8Array<ArrayBuffer>;
  release(): void;
}

type Held = (address: string, build: () => Promise<string | Uint8Array<ArrayBuffer>>) => Promise<HeldJson>;

export function heldAnswers(settings: PlaygroundSettings, now: () => number, refused: (limit: string) => void): Held {
  const inFlight = new InFlight();
  const readBytes = new ByteBudget(settings.readBytesPerSecond, 3 * settings.readBytesPerSecond, now);
  return async (address, build) => {
    const release = inFlight.enter(address);
    if (!release) {
      refused("reads_in_flight");
      throw new ApiError("rate_limited", "Too many reads of drafts at once; retry in 1 s.", { "retry-after": "1" });
    }
    try {
      const built = await build();
      const bytes = typeof built === "string" ? new TextEncoder().encode(built) : built;
      const wait = readBytes.take(bytes.byteLength);
      if (wait > 0) {
        refused("read_bytes");
        throw new ApiError("rate_limited", `Large drafts are being read faster than this server sends them; retry in ${wait} s.`, { "retry-after": String(wait) });
      }
      return { bytes, release };
    } catch (err) {
      release();
      throw err;
    }
  };
}

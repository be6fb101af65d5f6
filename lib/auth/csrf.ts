import "server-only";
import type { Sealer } from "@/lib/crypto/secrets";
import { sha256Hex } from "./tokens";

// The CSRF token of a session: our pages embed it (lib/auth/current.ts) and send it back with a
// person's own actions in this header; lib/saved/human.ts checks it.

export const CSRF_HEADER = "x-csrf-token";

/** The token our pages embed for this session; derived, so nothing is stored. */
export function csrfTokenFor(sealer: Sealer, sessionToken: string): string {
  return sealer.mac(sha256Hex(sessionToken), "csrf");
}

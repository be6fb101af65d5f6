import "server-only";
import { ApiError } from "@/lib/contract/errors";
import type { Sealer } from "@/lib/crypto/secrets";

// Cursors are opaque to clients and carry a MAC, so a cursor the server did not issue is told
// apart from one it did (400 invalid_cursor) rather than silently misread.

export function encodeCursor(sealer: Sealer, purpose: string, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  return `${body}.${sealer.mac(body, `cursor:${purpose}`).slice(0, 22)}`;
}

export function decodeCursor<T>(sealer: Sealer, purpose: string, cursor: string, isPayload: (v: unknown) => v is T): T {
  const [body, mac] = cursor.split(".");
  if (!body || !mac || sealer.mac(body, `cursor:${purpose}`).slice(0, 22) !== mac) {
    throw new ApiError("invalid_cursor", "Pass back a nextCursor exactly as this endpoint returned it.");
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    value = undefined;
  }
  if (!isPayload(value)) throw new ApiError("invalid_cursor", "Pass back a nextCursor exactly as this endpoint returned it.");
  return value;
}

import "server-only";
import { ReadCache } from "@/lib/cache/read-cache";
import type { Config, ConnectorSlug } from "@/lib/config";

// The per-person cache of direct vendor reads (lib/api/vendors.ts), fresh for
// CONNECTOR_CACHE_FRESH_MS, then served stale while it refreshes. Keys start with the user and the
// connector, so connecting, disconnecting and opting in can drop one person's entries.

/** The process's cache of vendor reads; the composition root (lib/root) keeps one. */
export function newVendorReadCache(settings: Config["connectorCache"]): ReadCache {
  return new ReadCache({ maxEntries: 2000, ...settings });
}

export function forgetReads(cache: ReadCache, userId: number, slug: ConnectorSlug): void {
  cache.invalidate(`${userId}:${slug}:`);
}

import "server-only";
import { ReadCache } from "@/lib/cache/read-cache";
import { config, type ConnectorSlug } from "@/lib/config";

// The per-person cache of direct vendor reads (lib/handlers/vendors.ts), fresh for
// CONNECTOR_CACHE_FRESH_MS, then served stale while it refreshes. Keys start with the user and the
// connector, so connecting, disconnecting and opting in can drop one person's entries.

const holder = globalThis as typeof globalThis & { __ddVendorCache?: ReadCache };

export function vendorCache(): ReadCache {
  holder.__ddVendorCache ??= new ReadCache({ maxEntries: 2000, ...config().connectorCache });
  return holder.__ddVendorCache;
}

export function forgetReads(userId: number, slug: ConnectorSlug): void {
  vendorCache().invalidate(`${userId}:${slug}:`);
}

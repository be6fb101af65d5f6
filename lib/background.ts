import "server-only";
import { config } from "@/lib/config";
import { startCrmSync } from "@/lib/crm/scheduler";
import { crmUpstream } from "@/lib/crm/upstream";
import { appDb } from "@/lib/runtime";

// Work the server does on its own: the CRM portal sync, at start and then on an interval.

const holder = globalThis as typeof globalThis & { __ddBackground?: { stop(): void } };

export function startBackground(): void {
  if (holder.__ddBackground || config().crmportal.mode === "off") return;
  holder.__ddBackground = startCrmSync({
    db: appDb,
    upstreamFor: crmUpstream,
    intervalMs: config().crmSync.intervalMs,
    onStart: config().crmSync.onStart,
    log: (line) => console.log(`[crm-sync] ${line}`),
  });
}

import type { Db } from "@/lib/db";
import { release, renew, tryAcquire } from "./lock";
import type { CrmInstance } from "@/lib/connectors/crmportal/records";

// The per-instance lease one sync run holds: renewed before every write, and by a heartbeat
// while the run waits on the upstream; given back at the end unless another run has taken it.

interface LeaseTerms {
  db: Db;
  instance: CrmInstance;
  /** Names the run in the lease. */
  holder: string;
  leaseMs: number;
}

class LeaseLost extends Error {
  constructor() {
    super("the sync lease expired and was taken by another run");
    this.name = "LeaseLost";
  }
}

export interface SyncLease {
  /** Renews the lease before a write; throws LeaseLost once another run has it. */
  keep(at: number): Promise<void>;
  /** Renews the lease every third of its length until `end`, calling `onBeat` after each renewal that held. */
  startHeartbeat(now: () => number, onBeat: (at: number) => Promise<void>): void;
  /** Stops the heartbeat, waits for a beat under way and gives the lease back, unless it was lost. */
  end(): Promise<void>;
}

/** The lease, when no other run holds it. */
export async function acquireLease(terms: LeaseTerms, at: number): Promise<SyncLease | null> {
  const { db, instance, holder, leaseMs } = terms;
  if (!(await tryAcquire(db, instance, holder, leaseMs, at))) return null;

  let lost = false;
  let beating: Promise<void> | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;

  return {
    async keep(at) {
      if (!(await renew(db, instance, holder, leaseMs, at))) lost = true;
      if (lost) throw new LeaseLost();
    },

    // A slow upstream answer can outlast the lease; the heartbeat keeps it while we wait.
    startHeartbeat(now, onBeat) {
      timer = setInterval(() => {
        if (beating) return;
        const at = now();
        beating = renew(db, instance, holder, leaseMs, at)
          .then(async (held) => {
            if (!held) lost = true;
            else await onBeat(at);
          })
          .catch(() => {})
          .finally(() => {
            beating = null;
          });
      }, Math.max(250, Math.floor(leaseMs / 3)));
      timer.unref?.();
    },

    async end() {
      if (timer) clearInterval(timer);
      if (beating) await beating;
      if (!lost) {
        try {
          await release(db, instance, holder);
        } catch {
          // An unreleased lease simply expires.
        }
      }
    },
  };
}

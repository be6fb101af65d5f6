import type { CxOwner } from "@/lib/contract/resources";
import type { Db } from "@/lib/db";
import { owners } from "./load";
import { readiness, type CxAnswer } from "./ready";

const collator = new Intl.Collator("en", { sensitivity: "base" });

/** The CSM roster, by name (then id); `activeOnly` drops owners who have left. */
export async function cxOwners(db: Db, q: { activeOnly?: boolean }): Promise<CxAnswer<{ owners: CxOwner[] }>> {
  const ready = await readiness(db);
  if (!ready.ready) return { ok: false, waitingOn: ready.waitingOn };
  const rows = await owners(db, q.activeOnly === true);
  rows.sort((a, b) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { ok: true, data: { owners: rows.map((r) => ({ ownerId: r.id, name: r.name, email: r.email })) } };
}

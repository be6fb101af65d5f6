import "server-only";
import type { ReadCache } from "@/lib/cache/read-cache";
import type { Db } from "@/lib/db";
import { dataVersion, memoized } from "@/lib/crm/memo";
import type { CxAnswer } from "./ready";

// The CX views read the customers instance and the usage and health loads; an answer is kept
// for as long as those stay the same (and the day, since windows end today). Answers that are
// still waiting are never kept.

const DAY_MS = 86_400_000;

export async function memoView<T>(cache: ReadCache, db: Db, key: string, now: number, compute: () => Promise<CxAnswer<T>>): Promise<CxAnswer<T>> {
  const version = await dataVersion(db, "customers", true);
  if (version === null) return compute();
  return memoized(cache, `cx:${key}|${Math.floor(now / DAY_MS)}`, version, compute);
}

import "server-only";
import { config } from "@/lib/config";
import { appDb, appSealer } from "@/lib/runtime";
import type { HumanDeps } from "./human";

/** The application's storage, key and origin for the human-action routes. */
export async function appHumanDeps(): Promise<HumanDeps> {
  return { db: await appDb(), sealer: appSealer(), publicOrigin: config().publicOrigin };
}

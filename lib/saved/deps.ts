import { config } from "@/lib/config";
import { appDb, appSealer } from "@/lib/runtime";
import type { HumanDeps } from "./human";
import { savedRoutes } from "./routes";

/** The application's storage, key and origin for the human-action routes. */
export async function appHumanDeps(): Promise<HumanDeps> {
  return { db: await appDb(), sealer: appSealer(), publicOrigin: config().publicOrigin };
}

/** The app's saving and account routes. */
export const appSavedRoutes = savedRoutes(appHumanDeps);

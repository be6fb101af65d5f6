import "server-only";
import { scenariosBody } from "@/lib/demo-api/answers";
import { json } from "@/lib/http/respond";
import { playgroundOperation } from "./operation";

export const scenarios = playgroundOperation({
  op: "playground.scenarios",
  route: "scenarios",
  mount: { refuse: "Use GET." },
  // Fixed for a build, public and credential-free: shared caches may keep it briefly.
  method: (on) => on({ handle: () => json(scenariosBody(), 200, { "cache-control": "public, max-age=300" }) }),
});

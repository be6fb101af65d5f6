import "server-only";
import { endpointsBody } from "@/lib/demo-api/endpoints-doc";
import { json } from "@/lib/http/respond";
import { playgroundOperation } from "./operation";

export const endpoints = playgroundOperation({
  op: "playground.endpoints",
  route: "endpoints",
  mount: { refuse: "Use GET." },
  // Generated from the contract, so fixed for a build; public and credential-free.
  method: (on) => on({ handle: () => json(endpointsBody(), 200, { "cache-control": "public, max-age=300" }) }),
});

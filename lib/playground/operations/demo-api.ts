import "server-only";
import { demoApiResponse } from "@/lib/demo-api/answers";
import { restPath } from "@/lib/http/edge";
import { json } from "@/lib/http/respond";
import { playgroundOperation } from "./operation";

export const demoApi = playgroundOperation({
  op: "playground.demoApi",
  route: "demoApi",
  mount: { refuse: "The demo API is read-only: use GET.", params: (raw) => restPath(raw) },
  method: (on, { demoReads }) =>
    on({
      limit: async (request) => demoReads.spend(request),
      handle: ({ url, params }) => {
        const { status, body } = demoApiResponse({ path: params, search: url.searchParams });
        return json(body, status, { "cache-control": "no-store" });
      },
    }),
});

import "server-only";
import { json } from "@/lib/http/respond";
import { renderBody } from "../stages";
import { playgroundOperation, tokenParam } from "./operation";

export const render = playgroundOperation({
  op: "playground.render",
  route: "render",
  mount: {
    refuse: "POST here (a JSON body of revision, viewport, scenario, examples and params, or none) to have the service draw a revision; the answer names its picture.",
    params: tokenParam,
  },
  method: (on, { playground, stages }) =>
    on({
      origin: async (request) => (await stages()).render(request),
      guard: async (_, readId) => (await stages()).capability(readId),
      body: renderBody,
      handle: async ({ request, params, origin, body }) => {
        const p = await playground();
        return json(await p.renders.render(params, body, { origin, address: p.stages.address(request) }));
      },
    }),
});

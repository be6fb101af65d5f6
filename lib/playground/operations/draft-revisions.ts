import "server-only";
import { revisionsQuery } from "../stages";
import { heldAnswer, playgroundOperation, tokenParam } from "./operation";

export const draftRevisions = playgroundOperation({
  op: "playground.draftRevisions",
  route: "revisions",
  mount: { refuse: "Revisions are read with GET.", params: tokenParam },
  method: (on, { playground, stages }) =>
    on({
      limit: async (request, readId) => (await stages()).read(request, readId),
      query: revisionsQuery,
      handle: async ({ request, params, query }) => {
        const p = await playground();
        return heldAnswer(await p.revisions(params, query, p.stages.address(request)));
      },
    }),
});

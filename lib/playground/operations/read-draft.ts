import "server-only";
import { heldAnswer, playgroundOperation, tokenParam } from "./operation";

// The draft's route takes a read id with GET and a write token with POST (update-draft.ts); the
// two never share a value.
export const readDraft = playgroundOperation({
  op: "playground.readDraft",
  route: "draft",
  mount: { refuse: "GET <read_id> reads a draft; POST <write_token> updates it. Nothing else is taken here.", params: tokenParam },
  method: (on, { playground, stages }) =>
    on({
      limit: async (request, readId) => (await stages()).read(request, readId),
      handle: async ({ request, params }) => {
        const p = await playground();
        return heldAnswer(await p.read(params, p.stages.address(request)));
      },
    }),
});

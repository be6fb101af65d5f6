import "server-only";
import { json } from "@/lib/http/respond";
import { draftUpdateBody } from "../stages";
import { playgroundOperation } from "./operation";

export const updateDraft = playgroundOperation<"draft", string>({
  op: "playground.updateDraft",
  route: "draft",
  method: (on, { playground, stages }) =>
    on({
      origin: async (request) => (await stages()).draftWrite(request),
      limit: async (_, writeToken) => (await stages()).update(writeToken),
      body: draftUpdateBody,
      handle: async ({ params, origin, body }) => json(await (await playground()).update(params, body, origin)),
    }),
});

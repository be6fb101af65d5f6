import "server-only";
import { json } from "@/lib/http/respond";
import { draftInputBody } from "../stages";
import { playgroundOperation } from "./operation";

export const createDraft = playgroundOperation({
  op: "playground.createDraft",
  route: "create",
  mount: { refuse: "POST a draft here to create it; read one at /dashboards/playground/draft/<read_id>." },
  method: (on, { playground, stages }) =>
    on({
      origin: async (request) => (await stages()).draftWrite(request),
      limit: async (request) => (await stages()).spend("creates", request),
      body: draftInputBody,
      handle: async ({ origin, body }) => json(await (await playground()).create(body, origin), 201),
    }),
});

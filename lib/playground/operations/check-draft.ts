import "server-only";
import { json } from "@/lib/http/respond";
import { draftInputBody } from "../stages";
import { playgroundOperation } from "./operation";

export const checkDraft = playgroundOperation({
  op: "playground.checkDraft",
  route: "check",
  mount: { refuse: "POST a draft body here (as to /draft) to check it without creating or publishing anything." },
  method: (on, { playground, stages }) =>
    on({
      origin: async (request) => (await stages()).draftCheck(request),
      limit: async (request) => (await stages()).spend("checks", request),
      body: draftInputBody,
      handle: async ({ body }) => json((await playground()).check(body)),
    }),
});

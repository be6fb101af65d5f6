import "server-only";
import { json } from "@/lib/http/respond";
import { reportBody } from "../stages";
import { playgroundOperation } from "./operation";

export const sendRenderReport = playgroundOperation<"reports", string>({
  op: "playground.sendRenderReport",
  route: "reports",
  method: (on, { playground, stages }) =>
    on({
      origin: async (request) => (await stages()).reportWrite(request),
      limit: async (request, readId) => (await stages()).report(request, readId),
      body: reportBody,
      handle: async ({ request, params, body }) => {
        const p = await playground();
        return json(await p.reports.post(params, body, p.stages.address(request)), 201);
      },
    }),
});

import "server-only";
import { json } from "@/lib/http/respond";
import { reportsQuery } from "../stages";
import { playgroundOperation, tokenParam } from "./operation";

// The reports' route: GET reads them, POST (send-render-report.ts) sends one.
export const renderReports = playgroundOperation({
  op: "playground.renderReports",
  route: "reports",
  mount: { refuse: "POST a render report here (the watch page does); GET reads them.", params: tokenParam },
  method: (on, { playground, stages }) =>
    on({
      limit: async (request, readId) => (await stages()).read(request, readId),
      query: reportsQuery,
      handle: async ({ params, query }) => json(await (await playground()).reports.list(params, query)),
    }),
});

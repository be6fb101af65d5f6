import "server-only";
import { SSE_HEADERS, parseLastEventId } from "@/lib/live/sse";
import { playgroundOperation, tokenParam } from "./operation";

export const draftEvents = playgroundOperation({
  op: "playground.draftEvents",
  route: "events",
  mount: { refuse: "The event stream is read with GET.", params: tokenParam },
  method: (on, { playground, stages, writeBodyAfterHeaders }) =>
    on({
      limit: async (request, readId) => (await stages()).read(request, readId),
      handle: async ({ request, params }) => {
        const p = await playground();
        const watch = await p.events(params, p.stages.address(request), parseLastEventId(request.headers.get("last-event-id")));
        // A stream lives for as long as its watcher: held as the Response's body, it keeps the
        // framework's pipe and the whole request that awaits it (tens of KB) pending all that time.
        const handed = request.method === "GET" && (writeBodyAfterHeaders?.(request, 200, { begin: (response) => watch.writeTo(response), abandon: () => watch.close() }) ?? false);
        if (handed) return new Response(null, { status: 200, headers: SSE_HEADERS });
        if (request.signal.aborted) watch.close();
        else request.signal.addEventListener("abort", () => watch.close(), { once: true });
        return new Response(watch.stream, { status: 200, headers: SSE_HEADERS });
      },
    }),
});

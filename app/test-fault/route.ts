// GET /test-fault — a handler that fails on purpose, so the integration tests can find an
// unexpected failure's stack in the server's log under its request id. Not found unless
// TEST_FAULTS=1 (tests only).
import { app } from "@/lib/root";
import { ApiError } from "@/lib/contract/errors";
import { defineRoute } from "@/lib/http/edge";
import { serverLog } from "@/lib/http/server-log";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Use GET.",
  methods: (on) => ({
    GET: on({
      handle: async () => {
        if (!app().config.testFaults) throw new ApiError("not_found");
        // After a turn of the event loop, as real work would be: the line must still find its request.
        await new Promise((resolve) => setTimeout(resolve, 5));
        serverLog("warn", "about to fail on purpose", { component: "test-fault" });
        throw new Error("test fault: thrown on purpose");
      },
    }),
  }),
});

// POST /~/<handle>/<slug> arrives here, rewritten by proxy.ts (the page at that path answers
// GET); proxy.ts refuses this path when it is asked for directly.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.saved.save;

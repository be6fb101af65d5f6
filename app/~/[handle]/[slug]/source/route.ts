// GET /~/<handle>/<slug>/source[?revision=N] — a saved dashboard's HTML as plain text (lib/saved/source-route.ts)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.saved.source;

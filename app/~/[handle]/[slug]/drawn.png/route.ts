// GET /~/<handle>/<slug>/drawn.png?viewport=desktop|phone&revision= — the safe view's drawing as
// a PNG, for "Download picture" (lib/saved/pictures.ts): asked as /drawn is, by the same people.
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.drawingPicture;

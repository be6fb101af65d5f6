// GET /dashboards/playground/draft/<read_id>/render/<revision>-<key>.png — a render's picture
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.playground.renderPicture;

// POST /dashboards/playground/draft — create a draft (answers the capability URLs)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.playground.create;

// POST /dashboards/playground/draft — create a draft (answers the capability URLs)
import { appPlaygroundRoutes } from "@/lib/playground/routes";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = appPlaygroundRoutes.create;

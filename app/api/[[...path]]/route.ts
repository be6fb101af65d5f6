// /api/* — the read-only JSON API. Routing, auth, parsing and errors live in lib/http/api and the edge.
import { apiHandlers } from "@/lib/handlers";
import { userForRequest } from "@/lib/auth/session";
import { apiRoute } from "@/lib/http/api";
import { appDb } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ db: appDb, userFor: userForRequest, handlers: apiHandlers });

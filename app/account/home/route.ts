// POST /account/home — set or clear where "/" goes (a human action from our own pages)
import { appSavedRoutes } from "@/lib/saved/deps";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = appSavedRoutes.home;

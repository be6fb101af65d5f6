// POST /account/favourites — star, unstar and reorder (a human action from our own pages)
import { appSavedRoutes } from "@/lib/saved/deps";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = appSavedRoutes.favourites;

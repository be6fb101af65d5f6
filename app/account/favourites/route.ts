// POST /account/favourites — star, unstar and reorder (a human action from our own pages)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.saved.favourites;

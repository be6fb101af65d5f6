// POST /account/trust — always run an author's dashboards on one's data, or stop (a human action from our own pages)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.saved.trust;

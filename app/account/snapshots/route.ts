// POST /account/snapshots — freeze one of one's own dashboards, share it or revoke it (a human action from our own pages)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.snapshots.account;

// POST /signin/demo — demo sign-in (only when no identity provider is configured)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.signin.demo;

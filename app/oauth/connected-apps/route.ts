// POST /oauth/connected-apps — the signed-in person disconnects an MCP host from their account page
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.oauth.connectedApps;

// /stand-ins/<slug>/* — local stand-ins of the vendor APIs (embedded default only)
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.standIns;

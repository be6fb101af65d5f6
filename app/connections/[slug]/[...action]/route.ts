// /connections/<slug>/{connect,callback,disconnect,opt-in,donor/connect,donor/disconnect}
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = app().routes.connections;

// POST /dashboards/playground/draft — create a draft (answers the capability URLs)
import { methodNotAllowed } from "@/lib/http/respond";
import { withAppPlayground } from "@/lib/playground/routes";

export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return withAppPlayground((playground) => playground.create(request));
}

const refuse = methodNotAllowed("POST", "POST a draft here to create it; read one at /dashboards/playground/draft/<read_id>.");
export { refuse as GET, refuse as PUT, refuse as PATCH, refuse as DELETE };

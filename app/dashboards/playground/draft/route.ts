// POST /dashboards/playground/draft — create a draft (answers the capability URLs)
import { withAppPlayground } from "@/lib/playground/routes";

export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return withAppPlayground((playground) => playground.create(request));
}

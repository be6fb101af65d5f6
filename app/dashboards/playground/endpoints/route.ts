// GET /dashboards/playground/endpoints — every API endpoint's JSON Schemas, errors and the error envelope.
import { json, readOnly } from "@/lib/http/respond";
import { endpointsBody } from "@/lib/playground/endpoints-doc";

// Generated from the contract, so fixed for a build; public and credential-free.
const caching = { "cache-control": "public, max-age=300" };

export function GET(): Response {
  return json(endpointsBody(), 200, caching);
}

const notAllowed = () => readOnly();
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

// GET /dashboards/playground/endpoints — every API endpoint's JSON Schemas, errors and the error envelope.
import { defineRoute } from "@/lib/http/edge";
import { json } from "@/lib/http/respond";
import { endpointsBody } from "@/lib/demo-api/endpoints-doc";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  refuse: "Use GET.",
  // Generated from the contract, so fixed for a build; public and credential-free.
  methods: (on) => ({ GET: on({ handle: () => json(endpointsBody(), 200, { "cache-control": "public, max-age=300" }) }) }),
});

import "server-only";
import { OAUTH_SCOPES } from "@/lib/auth/oauth";
import type { AuthorizationServerMetadata, ProtectedResourceMetadata } from "@/lib/contract/oauth";
import { defineRoute, type RouteModule } from "@/lib/http/edge";
import { json } from "@/lib/http/respond";
import { CORS, preflight } from "./answers";
import { MCP_PATH, PROTECTED_RESOURCE_PATH, type AuthorizationServer } from "./server";

// The two metadata documents a client reads first: the MCP endpoint's (RFC 9728), naming this
// server, and this server's own (RFC 8414), naming its endpoints.

/** GET /.well-known/oauth-protected-resource[/dashboards/playground/mcp] (RFC 9728). */
export function protectedResourceRoute(server: AuthorizationServer): RouteModule {
  const { originOf } = server;
  return defineRoute({
    params: (raw) => ({ rest: [raw.path ?? []].flat().join("/") }),
    refuse: "Read the protected resource's metadata with GET.",
    methods: (on) => ({
      GET: on({
        handle: ({ request, params }) => {
          // The root form and the path-inserted form of the MCP endpoint describe the same resource.
          if (params.rest !== "" && `/${params.rest}` !== MCP_PATH) {
            return json({ error: "not_found", hint: `The protected resource here is ${MCP_PATH}: ${PROTECTED_RESOURCE_PATH}${MCP_PATH}.` }, 404, CORS);
          }
          const origin = originOf(request);
          return json(
            {
              resource: `${origin}${MCP_PATH}`,
              authorization_servers: [origin],
              scopes_supported: [...OAUTH_SCOPES],
              bearer_methods_supported: ["header"],
              resource_name: "Dashboards",
              resource_documentation: `${origin}/docs/demo-api#mcp-hosts`,
            } satisfies ProtectedResourceMetadata,
            200,
            { ...CORS, "cache-control": "public, max-age=300" },
          );
        },
      }),
      OPTIONS: on({ handle: preflight("GET") }),
    }),
  });
}

/** GET /.well-known/oauth-authorization-server (RFC 8414). */
export function authorizationServerRoute(server: AuthorizationServer): RouteModule {
  const { originOf } = server;
  return defineRoute({
    refuse: "Read the authorization server's metadata with GET.",
    methods: (on) => ({
      GET: on({
        handle: ({ request }) => {
          const origin = originOf(request);
          return json(
            {
              issuer: origin,
              authorization_endpoint: `${origin}/oauth/authorize`,
              token_endpoint: `${origin}/oauth/token`,
              registration_endpoint: `${origin}/oauth/register`,
              revocation_endpoint: `${origin}/oauth/revoke`,
              revocation_endpoint_auth_methods_supported: ["none"],
              scopes_supported: [...OAUTH_SCOPES],
              response_types_supported: ["code"],
              response_modes_supported: ["query"],
              grant_types_supported: ["authorization_code", "refresh_token"],
              code_challenge_methods_supported: ["S256"],
              token_endpoint_auth_methods_supported: ["none"],
              authorization_response_iss_parameter_supported: true,
              client_id_metadata_document_supported: true,
              service_documentation: `${origin}/docs/demo-api#mcp-hosts`,
            } satisfies AuthorizationServerMetadata,
            200,
            { ...CORS, "cache-control": "public, max-age=300" },
          );
        },
      }),
      OPTIONS: on({ handle: preflight("GET") }),
    }),
  });
}

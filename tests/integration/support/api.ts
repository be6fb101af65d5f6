import { apiHandlers } from "@/lib/api";
import { startSession, userForRequest } from "@/lib/auth/session";
import { upsertUser } from "@/lib/auth/users";
import type { Db } from "@/lib/db";
import { handleApi, type HandlerServices } from "@/lib/api/api-route";
import { createCredentials } from "@/lib/connectors/credentials";
import { newVendorReadCache } from "@/lib/connectors/vendor-cache";
import { newAnswerCache } from "@/lib/crm/memo";
import { parseConfig } from "@/lib/config";
import { testSealer } from "./backends";

const testConfig = parseConfig({ SECRET_KEY: "integration-test-key-".repeat(2) });

/** Handler services of a test's own: fresh caches each call, the test key, no CRM portal. */
export function testServices(): HandlerServices {
  return {
    config: testConfig,
    sealer: testSealer,
    answers: newAnswerCache(),
    vendorReads: newVendorReadCache({ freshMs: 0, staleMs: 0 }),
    credentials: createCredentials({ config: testConfig, sealer: () => testSealer }),
    crmUpstream: () => null,
  };
}
import { demoUsers } from "@/demo/users";

// Calls the API wrapper as each demo user, the way a dashboard's fetch would arrive.

export type Who = "admin" | "csm" | "member";

export interface ApiClient {
  get(path: string, who: Who): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests parse bodies with the contract's schemas
}

/** Signs the three demo users in (creating them with their demo groups if absent). */
export async function apiAsDemoUsers(db: () => Db, services: () => HandlerServices = testServices): Promise<ApiClient> {
  const tokens = {} as Record<Who, string>;
  for (const who of ["admin", "csm", "member"] as const) {
    const demo = demoUsers.find((u) => u.email === `${who}@demo.test`)!;
    const id = await upsertUser(db(), { email: demo.email, name: demo.name, groups: demo.groups });
    tokens[who] = (await startSession(db(), id, 600_000)).token;
  }
  return {
    async get(path, who) {
      const res = await handleApi(new Request(`http://app.test/api${path}`, { headers: { cookie: `dd_session=${tokens[who]}` } }), path.split("?")[0]!, {
        db: async () => db(),
        services,
        userFor: userForRequest,
        handlers: apiHandlers,
      });
      return { status: res.status, body: await res.json() };
    },
  };
}

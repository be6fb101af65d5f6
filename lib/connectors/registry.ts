import "server-only";
import type { ConnectorSlug } from "@/lib/config";
import { callsConnector } from "./calls";
import { coderepoConnector } from "./coderepo";
import { supportConnector } from "./support";
import { trackerConnector } from "./tracker";
import type { ConnectorDef } from "./types";

/** Every outside system the API reads directly, in the order people see them. */
export const connectors: Record<ConnectorSlug, ConnectorDef> = {
  tracker: trackerConnector,
  coderepo: coderepoConnector,
  calls: callsConnector,
  support: supportConnector,
};

export function connectorFor(slug: string): ConnectorDef | undefined {
  return Object.hasOwn(connectors, slug) ? connectors[slug as ConnectorSlug] : undefined;
}

// GET /docs — the API reference, rendered from the docs model (lib/docs).
import type { Metadata } from "next";
import { headers } from "next/headers";
import { Reference } from "@/components/docs/Reference";
import { app } from "@/lib/app";
import { docsModel } from "@/lib/docs/model";
import { scenarios } from "@/lib/playground/demo-data";

export const metadata: Metadata = {
  title: "API reference",
  description: "Every endpoint of the dashboard data service with its fields, errors and an example, generated from the contract.",
};

/** The address curl lines show: the configured public origin, else the one this page was asked at. */
async function pageOrigin(): Promise<string> {
  const configured = app().config.publicOrigin;
  if (configured) return configured;
  const h = await headers();
  const host = h.get("host") ?? "localhost";
  const proto = h.get("x-forwarded-proto") === "https" ? "https" : "http";
  return /^[a-z0-9.:[\]-]+$/i.test(host) ? `${proto}://${host}` : "http://localhost";
}

export default async function DocsPage() {
  return <Reference model={docsModel()} origin={await pageOrigin()} scenarios={scenarios.map((s) => s.name)} />;
}

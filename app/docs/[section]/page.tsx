// GET /docs/<section> — one section of the API reference (its Markdown form: /docs/<section>.md).
import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { ReferenceSection } from "@/components/docs/Reference";
import { app } from "@/lib/root";
import { docsModel, sectionOf } from "@/lib/reference/model";
import { docsAnchors, searchIndexJson } from "@/lib/reference/search-asset";
import { docsSections, isSectionSlug } from "@/lib/reference/sections";
import { scenarios } from "@/lib/demo-api/data";

type Props = { params: Promise<{ section: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { section } = await params;
  const found = docsSections.find((s) => s.slug === section);
  return found ? { title: `${found.title} · API reference`, description: `${found.summary.charAt(0).toUpperCase()}${found.summary.slice(1)}.` } : {};
}

/** The address curl lines show: the configured public origin, else the one this page was asked at. */
async function pageOrigin(): Promise<string> {
  const configured = app().config.publicOrigin;
  if (configured) return configured;
  const h = await headers();
  const host = h.get("host") ?? "localhost";
  const proto = h.get("x-forwarded-proto") === "https" ? "https" : "http";
  return /^[a-z0-9.:[\]-]+$/i.test(host) ? `${proto}://${host}` : "http://localhost";
}

export default async function DocsSectionPage({ params }: Props) {
  const { section } = await params;
  if (!isSectionSlug(section)) notFound();
  const model = docsModel();
  return (
    <ReferenceSection
      model={model}
      section={sectionOf(model, section)}
      origin={await pageOrigin()}
      scenarios={scenarios.map((s) => s.name)}
      anchors={docsAnchors()}
      searchVersion={searchIndexJson().version}
    />
  );
}

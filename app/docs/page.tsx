// GET /docs — the API reference's index: its sections, each a page of its own (/docs/<section>),
// and the way on for old links to an anchor of the single page it used to be.
import type { Metadata } from "next";
import { ReferenceIndex } from "@/components/docs/Reference";
import { docsModel } from "@/lib/reference/model";
import { docsAnchors, searchIndexJson } from "@/lib/reference/search-asset";

export const metadata: Metadata = {
  title: "API reference",
  description: "Every endpoint of the dashboard data service with its fields, errors and an example, generated from the contract.",
};

export default function DocsPage() {
  return <ReferenceIndex model={docsModel()} anchors={docsAnchors()} searchVersion={searchIndexJson().version} />;
}

// GET /dashboards/playground/render/<read_id>?revision=&scenario=&examples=&p.<name>= — one revision of a demo
// draft drawn for the service's own renderer (lib/drafts/renders.ts): the watcher's frame and
// broker on the demo API, the frame sized to its content and the page's chrome covered, so the
// renderer's picture is the dashboard alone.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { RenderDraft } from "@/components/watch/RenderDraft";
import { FrameHostPolicy } from "@/components/dashboard-frame/FrameHostPolicy";
import { app } from "@/lib/root";
import { revisionOfDraft, validateDemoState } from "@/lib/drafts/drafts";
import { parseDashboardParams } from "@/lib/frame/params";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Render", robots: { index: false, follow: false } };

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

const query = z.object({
  revision: z.string().regex(/^[1-9][0-9]{0,14}$/).transform(Number),
  scenario: z.string().max(100).optional(),
  examples: z
    .string()
    .max(8_000)
    .transform((t, ctx) => {
      try {
        return z.record(z.string(), z.string()).parse(JSON.parse(t));
      } catch {
        ctx.addIssue({ code: "custom", message: "examples" });
        return z.NEVER;
      }
    })
    .optional(),
});

export default async function RenderPage({ params, searchParams }: Props) {
  const { id } = await params;
  const search = await searchParams;
  const q = query.safeParse(search);
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(id) || !q.success) notFound();
  const found = await revisionOfDraft((await app().playground()).context, id, q.data.revision).catch(() => null);
  // Demo drafts only: the server has no viewer whose data a live draft could read.
  if (!found || found.dataMode !== "demo") notFound();
  const scenario = q.data.scenario ?? found.revision.scenario;
  const examples = q.data.examples ?? found.revision.examples;
  try {
    validateDemoState({ scenario, examples });
  } catch {
    notFound();
  }
  return (
    <>
      <FrameHostPolicy />
      <RenderDraft html={found.revision.html} scenario={scenario} examples={examples} params={{ ...parseDashboardParams(search).params }} title={`Dashboard: revision ${found.revision.revision}`} />
    </>
  );
}

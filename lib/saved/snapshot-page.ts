import "server-only";
import { neutralised } from "@/lib/contract/display-text";
import { INERT_CSP } from "@/lib/inert/policy";
import type { Snapshot, SnapshotOpened, SnapshotSummary, SnapshotVisibility } from "./snapshots";

// The page at /snapshots/<token>, written here rather than by the framework: it answers 410 once
// the snapshot has ended and 404 to whoever may not open it, which a framework page cannot, and
// it carries no script at all. The stored document is shown in a frame with an empty sandbox
// (no script, forms, popups or same origin) under a policy as strict as the document's own, so
// the page, the frame and the document each refuse every request but inline styles and data:
// images. The owner's controls are plain forms posting to /account/snapshots (a human action:
// session, same origin, CSRF token), answered with a redirect back here.

/**
 * The page's policy: the inert document's (which the frame's document inherits), with forms
 * allowed to post to this site alone, for the owner's Share and Revoke.
 */
const SNAPSHOT_PAGE_CSP = `${INERT_CSP.replace("form-action 'none'", "form-action 'self'")}; frame-src 'none'; frame-ancestors 'none'`;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Text people wrote (titles, names): shown as it reads, bidirectional tricks taken out. */
const text = (s: string) => esc(neutralised(s));

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#f6f8fa;margin:0}
header{display:flex;gap:1rem;align-items:center;justify-content:space-between;padding:.6rem 1.25rem;background:#fff;border-bottom:1px solid #d0d7de}
header .brand{font-weight:600;color:#1f2328;text-decoration:none}
main{max-width:80rem;margin:1.5rem auto;padding:0 1.25rem}
h1{font-size:1.5rem;margin:.2rem 0 .5rem}h2{font-size:1.1rem;margin:0 0 .5rem}
a{color:#0550ae}.muted{color:#57606a}
.notice{background:#ddf4ff;border:1px solid #54aeff;border-radius:6px;padding:.6rem .9rem}
.card{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
fieldset{border:0;padding:0;margin:0 0 .75rem}legend{font-weight:600;margin-bottom:.25rem}
label{display:block}input[type=text]{font:inherit;width:100%;max-width:48rem;padding:.35rem .5rem;border:1px solid #8c959f;border-radius:6px}
button{font:inherit;padding:.4rem 1rem;border-radius:6px;border:1px solid #8c959f;background:#f6f8fa;cursor:pointer;color:#1f2328}
button.danger{color:#a40e26;border-color:#a40e26}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.actions{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-end}
iframe{display:block;width:100%;border:1px solid #d0d7de;border-radius:8px;background:#fff;margin-top:1rem}`;

/** A time as a person reads it anywhere: the page runs no script to learn their time zone. */
function when(iso: string): string {
  const shown = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso));
  return `<time datetime="${esc(iso)}">${esc(shown)} UTC</time>`;
}

const AUDIENCE: Record<SnapshotVisibility, string> = {
  private: "you alone",
  signed_in: "anyone signed in to this site",
  link: "anyone holding this address, signed in or not",
};

interface PageContext {
  /** The viewer, if signed in. */
  signedIn: boolean;
  /** This site's origin, for the address the owner copies. */
  origin: string;
  /** The viewer's CSRF token, for the owner's forms. */
  csrf: string | null;
}

function document(title: string, body: string, ctx: PageContext, path: string): string {
  const account = ctx.signedIn ? `<a href="/account">Your account</a>` : `<a href="/signin?next=${encodeURIComponent(path)}">Sign in</a>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="same-origin"><meta name="robots" content="noindex, nofollow"><title>${text(title)} · Dashboards</title><style>${STYLE}</style></head><body><header><a class="brand" href="/">Dashboards</a>${account}</header><main id="main">${body}</main></body></html>`;
}

function ownerControls(s: SnapshotSummary, csrf: string, origin: string): string {
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${esc(value)}">`;
  const radios = (Object.keys(AUDIENCE) as SnapshotVisibility[])
    .map((v) => `<label><input type="radio" name="visibility" value="${v}"${v === s.visibility ? " checked" : ""}> ${esc(AUDIENCE[v][0]!.toUpperCase() + AUDIENCE[v].slice(1))}</label>`)
    .join("");
  return `<section class="card" aria-labelledby="share-title" data-testid="snapshot-owner">
<h2 id="share-title">Share it</h2>
<p><label for="snapshot-address">Its address</label><input type="text" id="snapshot-address" readonly value="${esc(origin + s.path)}" data-testid="snapshot-address"></p>
<div class="actions">
<form method="post" action="/account/snapshots">${hidden("csrf", csrf)}${hidden("op", "share")}${hidden("id", s.id)}${hidden("next", s.path)}<fieldset><legend>Who may open it</legend>${radios}</fieldset><button type="submit">Save who may open it</button></form>
<form method="post" action="/account/snapshots">${hidden("csrf", csrf)}${hidden("op", "revoke")}${hidden("id", s.id)}${hidden("next", s.path)}<button type="submit" class="danger">Revoke this snapshot</button></form>
</div>
<p class="muted">Revoking deletes what it shows at once; its address then answers that it is gone. Your snapshots are listed on <a href="/account#snapshots">your account</a>.</p>
</section>`;
}

function shownPage(s: Snapshot, own: boolean, ctx: PageContext): string {
  const by = own ? "your" : `${text(s.owner.name)}’s`;
  const body = `<h1><bdi>${text(s.title)}</bdi></h1>
<p class="notice" data-testid="snapshot-notice"><strong>A snapshot, frozen as it was drawn:</strong> this site drew it on ${by} data on ${when(s.drawnAt)} and kept the drawing. It runs no code and reads nobody’s data again.</p>
<p class="muted" data-testid="snapshot-meta">By <bdi>${text(s.owner.name)}</bdi> (/~/${text(s.owner.handle)}) · from revision ${s.revision} of ${own ? `<a href="${esc(s.dashboard)}">${text(s.dashboard)}</a>` : text(s.dashboard)} · expires on ${when(s.expiresAt)} · visible to ${AUDIENCE[s.visibility]}</p>
${s.picture ? `<p><a href="${esc(s.path)}/picture.png" download data-testid="snapshot-picture">Download picture</a> <span class="muted">(PNG, as drawn)</span></p>` : ""}
${own && ctx.csrf ? ownerControls(s, ctx.csrf, ctx.origin) : ""}
<iframe data-testid="snapshot-frame" title="Snapshot: ${text(s.title)}" sandbox="" referrerpolicy="no-referrer" style="height:${Math.max(160, s.height)}px" srcdoc="${esc(s.html)}"></iframe>`;
  return document(s.title, body, ctx, s.path);
}

function gonePage(opened: Extract<SnapshotOpened, { kind: "gone" }>, ctx: PageContext): string {
  const s = opened.summary;
  const why = opened.why === "revoked" ? (opened.own ? "You revoked it" : "Its owner revoked it") : `It expired on ${when(s.expiresAt)}`;
  const again = opened.own ? ` You can freeze a new one from <a href="${esc(s.dashboard)}">${text(s.dashboard)}</a>.` : "";
  const body = `<h1>This snapshot is gone</h1>
<p data-testid="snapshot-gone">${why}, and what it showed has been deleted.${again}</p>
<p><a href="/">Back to Dashboards</a></p>`;
  return document("Snapshot gone", body, ctx, s.path);
}

function hiddenPage(path: string, ctx: PageContext): string {
  const signIn = ctx.signedIn ? "" : ` If it was shared with people signed in to this site, <a href="/signin?next=${encodeURIComponent(path)}">sign in</a> and open it again.`;
  const body = `<h1>No snapshot here</h1>
<p data-testid="snapshot-hidden">There is no snapshot at this address that you may open. Check the address you were given.${signIn}</p>
<p><a href="/">Back to Dashboards</a></p>`;
  return document("No snapshot here", body, ctx, path);
}

/** The page for what openSnapshot found, with its status: 200, 410 or 404. */
export function snapshotPage(opened: SnapshotOpened, path: string, ctx: PageContext): Response {
  const [status, html] =
    opened.kind === "shown" ? [200, shownPage(opened.snapshot, opened.own, ctx)] : opened.kind === "gone" ? [410, gonePage(opened, ctx)] : [404, hiddenPage(path, ctx)];
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "private, no-store",
      "content-security-policy": SNAPSHOT_PAGE_CSP,
      "x-robots-tag": "noindex, nofollow",
    },
  });
}

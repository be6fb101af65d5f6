import "server-only";
import type { SessionUser } from "@/lib/auth/session";
import { isMetadataClientId } from "@/lib/auth/client-metadata";
import { neutralised } from "@/lib/contract/display-text";
import type { AuthorizeRequest } from "./authorize";

// The pages the authorization endpoint shows the person: the consent page and a refusal.

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#f6f8fa;margin:0}
main{max-width:34rem;margin:3rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #d0d7de;border-radius:8px}
h1{font-size:1.4rem;margin:.2rem 0 1rem}code{font-size:.92em;background:#f6f8fa;padding:.1em .3em;border-radius:4px;word-break:break-all}
ul{padding-left:1.2rem}.muted{color:#57606a;font-size:.9rem}.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{font:inherit;padding:.5rem 1.1rem;border-radius:6px;border:1px solid #d0d7de;background:#f6f8fa;cursor:pointer}
button.primary{background:#1f6feb;border-color:#1f6feb;color:#fff}button:focus-visible{outline:3px solid #0969da;outline-offset:2px}`;

export function page(title: string, body: string, status: number, formAction: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="same-origin"><title>${escapeHtml(title)} · Dashboards</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      // The form posts here and is answered with a redirect to the app: Chrome holds that
      // redirect to form-action too, so the app's own origin is named beside ours.
      "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    },
  });
}

export function consentPage(req: AuthorizeRequest, user: SessionUser, csrf: string): Response {
  const back = new URL(req.redirectUri);
  const hidden = [
    ["csrf", csrf],
    ["response_type", "code"],
    ["client_id", req.client.client_id],
    ["redirect_uri", req.redirectUri],
    ["scope", req.scope],
    ["code_challenge", req.codeChallenge],
    ["code_challenge_method", "S256"],
    ["resource", req.resource],
    ...(req.state !== null ? [["state", req.state]] : []),
  ]
    .map(([n, v]) => `<input type="hidden" name="${n}" value="${escapeHtml(v!)}">`)
    .join("");
  // Each name the app or a provider chose is shown isolated, so not even a right-to-left one can
  // reorder the words around it; names stored before such characters were refused lose them here.
  // A host known by its metadata document is who serves that document: its host is shown, and
  // a document is only fetched from the host it names.
  const identified = isMetadataClientId(req.client.client_id)
    ? `<p>The app identifies itself by its metadata document at <code data-testid="oauth-client-host">${escapeHtml(new URL(req.client.client_id).host)}</code>.</p>`
    : `<p class="muted">The app registered itself here; nothing vouches for it but the address above.</p>`;
  const shownName = neutralised(req.client.client_name);
  const name = escapeHtml(shownName);
  const body = `<h1 id="consent-title">Connect <bdi data-testid="oauth-client-name">${name}</bdi> to Dashboards?</h1>
<p>Signed in as <strong data-testid="oauth-account"><bdi>${escapeHtml(neutralised(user.name))}</bdi></strong> (<bdi>${escapeHtml(neutralised(user.email))}</bdi>).</p>
<p>If you approve, <strong><bdi>${name}</bdi></strong> may:</p>
<ul>
<li>show your saved dashboards inside the app, on your live data (read only);</li>
<li>show dashboards by authors you trust on this site, on your live data; anyone else's it can only link to, for you to open here;</li>
<li>use the playground's draft tools as anyone can.</li>
</ul>
<p>It cannot save, change or delete anything, cannot trust an author or allow a dashboard for you, and never sees your password or session.</p>
<p>After you answer you will be sent to <code data-testid="oauth-redirect">${escapeHtml(back.origin + back.pathname)}</code>.</p>
${identified}
<p class="muted">The app's name is what it says of itself; check the address above. You can disconnect it at any time on your <a href="/account#connected-apps">account page</a>.</p>
<form method="post" action="/oauth/authorize" aria-labelledby="consent-title">${hidden}
<div class="actions"><button type="submit" name="decision" value="approve" class="primary" data-testid="oauth-approve">Approve</button><button type="submit" name="decision" value="deny" data-testid="oauth-deny">Deny</button></div>
</form>`;
  return page(`Connect ${shownName}`, body, 200, `form-action 'self' ${back.origin}`);
}

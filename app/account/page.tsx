// GET /account — the signed-in person's own settings: where "/" goes, their favourites, the
// authors they trust with their data, their snapshots and the MCP hosts they connected. Server-rendered forms that POST to the account actions
// (/account/home, /account/favourites, /account/trust, /account/snapshots), which send a form back here (303); the
// trusted authors' and snapshots' lists also change in place once their script runs.
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SnapshotsList } from "@/components/saved/SnapshotsList";
import { TrustedAuthors } from "@/components/saved/TrustedAuthors";
import { app } from "@/lib/root";
import { currentSession } from "@/lib/root/current";
import { connectedApps } from "@/lib/auth/oauth";
import { favouritesOf, homeOf } from "@/lib/auth/users";
import { snapshotsOf } from "@/lib/saved/snapshots";
import { trustedAuthors } from "@/lib/saved/trust";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "Your account",
  robots: { index: false, follow: false },
  // The forms here are human actions: the server checks their Origin, which a no-referrer page
  // would send as "null". Same-origin only, so nothing more leaves the site.
  referrer: "same-origin",
};

function CsrfField({ csrf }: { csrf: string }) {
  return <input type="hidden" name="csrf" value={csrf} />;
}

export default async function AccountPage() {
  const session = await currentSession();
  if (!session) redirect(`/signin?next=${encodeURIComponent("/account")}`);
  const { user, csrf } = session;
  const db = await app().db();
  const [home, favourites, trusted, apps, snapshots] = await Promise.all([
    homeOf(db, user.id),
    favouritesOf(db, user.id),
    trustedAuthors(db, user.id),
    connectedApps(db, user.id),
    snapshotsOf(db, user.id),
  ]);
  return (
    <div className="stack">
      <h1>Your account</h1>
      <p className="muted">
        Signed in as {user.email}. Your dashboards are in <a href={`/~/${user.handle}`}>/~/{user.handle}</a>; your connected tools are on{" "}
        <Link href="/connections">Connections</Link>.
      </p>

      <section id="home" className="card stack" aria-labelledby="home-title" data-testid="account-home">
        <h2 id="home-title">Home page</h2>
        {home ? (
          <>
            <p>
              <Link href="/">/</Link> opens <a href={home}>{home}</a>. The start page stays at <Link href="/?start">/?start</Link>.
            </p>
            <form method="post" action="/account/home">
              <CsrfField csrf={csrf} />
              <input type="hidden" name="path" value="" />
              <button type="submit">Use the start page as home</button>
            </form>
          </>
        ) : (
          <p data-testid="account-home-none">
            <Link href="/">/</Link> opens the start page. To open a dashboard there instead, choose “Make home” on one of your favourites below, or “Set as home” on any saved dashboard.
          </p>
        )}
      </section>

      <section id="favourites" className="card stack" aria-labelledby="favourites-title" data-testid="account-favourites">
        <h2 id="favourites-title">Favourites</h2>
        {favourites.length === 0 ? (
          <p data-testid="account-favourites-none">No favourites yet. Star a saved dashboard to see it here and on the start page.</p>
        ) : (
          <ul className="user-list">
            {favourites.map((f) => (
              <li key={f.href} data-testid="account-favourite">
                <a href={f.href}><bdi>{f.label}</bdi></a>
                <span className="inline">
                  {f.href.startsWith("/~/") && f.href !== home ? (
                    <form className="inline" method="post" action="/account/home">
                      <CsrfField csrf={csrf} />
                      <input type="hidden" name="path" value={f.href} />
                      <button type="submit" aria-label={`Make ${f.label} your home`}>
                        Make home
                      </button>
                    </form>
                  ) : null}{" "}
                  <form className="inline" method="post" action="/account/favourites">
                    <CsrfField csrf={csrf} />
                    <input type="hidden" name="op" value="remove" />
                    <input type="hidden" name="href" value={f.href} />
                    <button type="submit" aria-label={`Remove ${f.label} from favourites`}>
                      Remove
                    </button>
                  </form>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <div id="trusted-authors">
        <TrustedAuthors initial={trusted} csrf={csrf} returnTo="/account#trusted-authors" />
      </div>

      <SnapshotsList initial={snapshots} csrf={csrf} />

      <section id="connected-apps" className="card stack" aria-labelledby="connected-apps-title" data-testid="connected-apps">
        <h2 id="connected-apps-title">Connected apps</h2>
        {apps.length === 0 ? (
          <p data-testid="connected-apps-none">
            No app is connected. An MCP host (Claude, ChatGPT, VS Code) asks to connect the first time it shows one of your saved dashboards.
          </p>
        ) : (
          <>
            <p className="muted">These apps can show your saved dashboards, and those of authors you trust, on your live data. They cannot trust anyone, allow a dashboard or change anything for you. Disconnecting one ends its access at once.</p>
            <ul className="user-list">
              {apps.map((a) => (
                <li key={a.grantId} data-testid="connected-app">
                  <span>
                    <strong><bdi>{a.clientName}</bdi></strong>{" "}
                    <span className="muted">
                      connected {a.since.slice(0, 10)}, last used {a.lastUsed.slice(0, 10)}
                    </span>
                  </span>
                  <form className="inline" method="post" action="/oauth/connected-apps">
                    <CsrfField csrf={csrf} />
                    <input type="hidden" name="grant" value={a.grantId} />
                    <button type="submit" aria-label={`Disconnect ${a.clientName}`}>
                      Disconnect
                    </button>
                  </form>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </div>
  );
}

import type { Metadata } from "next";
import { CallsOptIn } from "@/components/connections/CallsOptIn";
import { ConfirmSubmit } from "@/components/connections/ConfirmSubmit";
import { StatusBadge } from "@/components/connections/StatusBadge";
import { RelativeTime } from "@/components/ui/RelativeTime";
import styles from "@/components/connections/connections.module.css";
import { TrustedAuthors } from "@/components/saved/TrustedAuthors";
import { currentSession } from "@/lib/root/current";
import { trustedAuthors } from "@/lib/saved/trust";
import { connectorFor, connectors } from "@/lib/connectors/registry";
import { connectionStates, donorToken, hasCallsOptIn, type StoredToken } from "@/lib/connectors/store";
import type { ConnectorDef } from "@/lib/connectors/types";
import { app } from "@/lib/root";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connections" };

type SearchParams = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

const errorMessages: Record<string, (product: string) => string> = {
  denied: (p) => `You cancelled on the ${p} consent page, so nothing was connected.`,
  flow_invalid: () => "That connection attempt had expired or was already used. Start again with Connect.",
  token_exchange: (p) => `${p} did not hand over an access token, so nothing was connected. Try again in a moment.`,
  not_configured: (p) => `${p} is not configured in this deployment, so it cannot be connected.`,
  vendor_error: (p) => `${p} reported an error while you were approving access. Try again.`,
};

interface Outcome {
  kind: "ok" | "error";
  text: string;
}

// Only known slugs and codes are turned into words: the query string is never echoed back.
function outcomeFrom(sp: SearchParams): Outcome | null {
  const nameOf = (slug: string | undefined, what: "title" | "product") => {
    const def = slug ? connectorFor(slug) : undefined;
    return def ? def[what] : undefined;
  };
  const error = one(sp.error);
  if (error) {
    const product = nameOf(one(sp.slug), "product") ?? "The outside system";
    const message = errorMessages[error];
    return { kind: "error", text: message ? message(product) : "The connection did not complete. Try again." };
  }
  const connected = one(sp.connected);
  const connectedDef = connected ? connectorFor(connected) : undefined;
  if (connectedDef) {
    return {
      kind: "ok",
      text:
        connectedDef.credential === "donor"
          ? `The shared ${connectedDef.product} credential is connected.`
          : `${connectedDef.title} (${connectedDef.product}) is connected.`,
    };
  }
  const disconnected = one(sp.disconnected);
  const disconnectedDef = disconnected ? connectorFor(disconnected) : undefined;
  if (disconnectedDef) {
    return {
      kind: "ok",
      text:
        disconnectedDef.credential === "donor"
          ? `The shared ${disconnectedDef.product} credential is disconnected and its stored token deleted.`
          : `${disconnectedDef.title} (${disconnectedDef.product}) is disconnected and its stored token deleted.`,
    };
  }
  if (one(sp.optedIn) === "calls") return { kind: "ok", text: "You opted in to call recordings." };
  if (one(sp.optedOut) === "calls") return { kind: "ok", text: "You opted out of call recordings." };
  return null;
}

export default async function ConnectionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await currentSession();
  const user = session?.user ?? null;
  if (!user) {
    return (
      <div className="stack">
        <h1>Connections</h1>
        <p>
          <a className="button primary" href={`/signin?next=${encodeURIComponent("/connections")}`}>
            Sign in
          </a>{" "}
          to connect your issue tracker, code hosting and customer messaging, and to opt in to call recordings.
        </p>
      </div>
    );
  }

  const sp = await searchParams;
  const outcome = outcomeFrom(sp);
  const db = await app().db();
  const [mine, optedIn, donor, trusted] = await Promise.all([
    connectionStates(db, user.id),
    hasCallsOptIn(db, user.id),
    donorToken(db, app().sealer(), "calls"),
    trustedAuthors(db, user.id),
  ]);
  const canManageDonor = user.permissions.includes("calls.donor.manage");
  const upstreams = app().config.upstreams;

  return (
    <div className="stack">
      <h1>Connections</h1>
      <p className="muted">
        Connect the outside systems your dashboards read as you. Each card runs a live, read-only check as you when the
        page opens.
      </p>

      {outcome ? (
        <p
          role={outcome.kind === "error" ? "alert" : "status"}
          className={`${styles.notice} ${outcome.kind === "error" ? styles.noticeError : styles.noticeOk}`}
          data-testid="outcome"
          data-kind={outcome.kind}
        >
          {outcome.text}
        </p>
      ) : null}

      <ul className={styles.list} aria-label="Connectors">
        {Object.values(connectors).map((def) =>
          def.credential === "donor" ? (
            <DonorCard
              key={def.slug}
              def={def}
              configured={upstreams[def.slug].mode !== "off"}
              optedIn={optedIn}
              donorConnected={donor !== null}
              donorReconnect={donor?.reconnect ?? null}
              canManage={canManageDonor}
            />
          ) : (
            <UserCard
              key={def.slug}
              def={def}
              configured={upstreams[def.slug].mode !== "off"}
              connected={mine.has(def.slug)}
              reconnect={mine.get(def.slug) ?? null}
            />
          ),
        )}
        <li className="card stack" data-testid="connector-crmportal" aria-labelledby="connector-crmportal-title">
          <div className={styles.cardHeader}>
            <h2 id="connector-crmportal-title">CRM portal</h2>
          </div>
          <p className={`${styles.product} muted`}>Synced for the whole organisation; no personal connection.</p>
          <StatusBadge slug="crmportal" title="CRM portal" onConnectionsPage />
        </li>
      </ul>
      {session ? <TrustedAuthors initial={trusted} csrf={session.csrf} /> : null}
    </div>
  );
}

function YesNo({ yes, testId, yesText, noText }: { yes: boolean; testId: string; yesText: string; noText: string }) {
  return (
    <dd className={yes ? styles.yes : styles.no} data-testid={testId} data-connected={yes ? "true" : "false"}>
      {yes ? yesText : noText}
    </dd>
  );
}

function CardHeader({ def, titleId }: { def: ConnectorDef; titleId: string }) {
  return (
    <div className={styles.cardHeader}>
      <h2 id={titleId}>{def.title}</h2>
      <p className={`${styles.product} muted`}>{def.product}</p>
    </div>
  );
}

type Reconnect = StoredToken["reconnect"];

/** A credential that can no longer be used or renewed: why, and since when. */
function ReconnectFact({ reconnect, testId }: { reconnect: NonNullable<Reconnect>; testId: string }) {
  return (
    <dd className={styles.no} data-testid={testId} data-connected="reconnect">
      Reconnect needed: {reconnect.reason}{" "}
      <span className="muted">
        (since <RelativeTime ms={reconnect.at} />)
      </span>
    </dd>
  );
}

function UserCard({ def, configured, connected, reconnect }: { def: ConnectorDef; configured: boolean; connected: boolean; reconnect: Reconnect }) {
  const titleId = `connector-${def.slug}-title`;
  return (
    <li className="card stack" data-testid={`connector-${def.slug}`} aria-labelledby={titleId}>
      <CardHeader def={def} titleId={titleId} />
      <dl className={styles.facts}>
        <dt>Your connection</dt>
        {reconnect ? (
          <ReconnectFact reconnect={reconnect} testId="connection-state" />
        ) : (
          <YesNo yes={connected} testId="connection-state" yesText="Connected" noText="Not connected" />
        )}
      </dl>
      <StatusBadge slug={def.slug} title={def.title} onConnectionsPage />
      <div className={styles.actions}>
        {reconnect && configured ? (
          <form method="post" action={`/connections/${def.slug}/connect`}>
            <button type="submit" className="primary">
              Reconnect<span className={styles.srOnly}> {def.title}</span>
            </button>
          </form>
        ) : null}
        {connected ? (
          <ConfirmSubmit action={`/connections/${def.slug}/disconnect`} label="Disconnect" srLabel={def.title} question={`Disconnect ${def.product}?`} confirmLabel="Disconnect">
            <p>
              Your stored {def.product} access is deleted. Dashboards that read {def.product} as you stop showing it until you connect again.
            </p>
          </ConfirmSubmit>
        ) : configured ? (
          <form method="post" action={`/connections/${def.slug}/connect`}>
            <button type="submit" className="primary">
              Connect<span className={styles.srOnly}> {def.title}</span>
            </button>
          </form>
        ) : (
          <p className="muted">Not configured in this deployment.</p>
        )}
      </div>
    </li>
  );
}

function DonorCard(props: { def: ConnectorDef; configured: boolean; optedIn: boolean; donorConnected: boolean; donorReconnect: Reconnect; canManage: boolean }) {
  const { def, configured, optedIn, donorConnected, donorReconnect, canManage } = props;
  const titleId = `connector-${def.slug}-title`;
  return (
    <li className="card stack" data-testid={`connector-${def.slug}`} aria-labelledby={titleId}>
      <CardHeader def={def} titleId={titleId} />
      <dl className={styles.facts}>
        <dt>Shared credential</dt>
        {donorReconnect ? (
          <ReconnectFact reconnect={donorReconnect} testId="donor-state" />
        ) : (
          <YesNo yes={donorConnected} testId="donor-state" yesText="Connected" noText="Not connected" />
        )}
      </dl>
      <CallsOptIn slug={def.slug} product={def.product} initial={optedIn} />
      <StatusBadge slug={def.slug} title={def.title} onConnectionsPage />
      {canManage ? (
        <section className={styles.donor} aria-labelledby="donor-controls-title" data-testid="donor-controls">
          <h3 id="donor-controls-title">Shared credential (admins)</h3>
          <div className={styles.actions}>
            {donorReconnect && configured ? (
              <form method="post" action={`/connections/${def.slug}/donor/connect`}>
                <button type="submit" className="primary">
                  Reconnect shared credential
                </button>
              </form>
            ) : null}
            {donorConnected ? (
              <ConfirmSubmit
                action={`/connections/${def.slug}/donor/disconnect`}
                label="Disconnect shared credential"
                question={`Disconnect the shared ${def.product} credential?`}
                confirmLabel="Disconnect"
              >
                <p>Nobody in the organisation can read call recordings until an admin connects it again.</p>
              </ConfirmSubmit>
            ) : configured ? (
              <form method="post" action={`/connections/${def.slug}/donor/connect`}>
                <button type="submit" className="primary">
                  Connect shared credential
                </button>
              </form>
            ) : (
              <p className="muted">Not configured in this deployment.</p>
            )}
          </div>
        </section>
      ) : null}
    </li>
  );
}

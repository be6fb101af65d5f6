import Link from "next/link";

// What the page around a live dashboard says when the viewer's own setup stops a read: a
// dashboard links only to what its data names and to pages that only show something, so the
// link to /connections is the page's.

/** What each refusal asks of the viewer, by the API's error code. */
const NEEDS: Readonly<Record<string, { system: string; ask: "connect" | "opt-in" | "admin" }>> = {
  tracker_not_connected: { system: "the issue tracker", ask: "connect" },
  coderepo_not_connected: { system: "code hosting", ask: "connect" },
  support_not_connected: { system: "customer messaging", ask: "connect" },
  calls_not_opted_in: { system: "call recordings", ask: "opt-in" },
  calls_donor_not_connected: { system: "call recordings", ask: "admin" },
};

/** Whether a refusal is one the viewer (or an admin) fixes on /connections. */
export function isConnectionNeed(code: string | undefined): code is string {
  return code !== undefined && Object.hasOwn(NEEDS, code);
}

function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function ConnectNotice({ codes }: { codes: readonly string[] }) {
  const needs = codes.flatMap((c) => (Object.hasOwn(NEEDS, c) ? [NEEDS[c]!] : []));
  const of = (ask: string) => [...new Set(needs.filter((n) => n.ask === ask).map((n) => n.system))];
  const connect = of("connect");
  const optIn = of("opt-in");
  const admin = of("admin");
  if (needs.length === 0) return null;
  return (
    <p>
      {connect.length > 0 ? `This dashboard reads ${list(connect)}, which you have not connected. ` : null}
      {optIn.length > 0 ? `This dashboard reads ${list(optIn)}, which you have not opted in to. ` : null}
      {admin.length > 0 ? `This dashboard reads ${list(admin)}, which needs the shared credential an admin connects. ` : null}
      <Link href="/connections">{connect.length > 0 ? "Connect" : optIn.length > 0 ? "Opt in" : "See connections"} on the Connections page</Link>
    </p>
  );
}

import Link from "next/link";
import { currentUser } from "@/lib/auth/current";

export const dynamic = "force-dynamic";

export default async function Landing() {
  const user = await currentUser();
  return (
    <div className="stack">
      <h1>Dashboards</h1>
      <p>
        Draft a data dashboard as one HTML file, watch it render live against demo data or your own, and save it for
        your team.
      </p>
      {user ? (
        <section className="card stack" aria-labelledby="welcome">
          <h2 id="welcome">Welcome, {user.name}</h2>
          <p className="muted">
            Signed in as <strong>{user.email}</strong>
            {user.groups.length > 0 ? ` · groups: ${user.groups.join(", ")}` : ""}
          </p>
          <p>
            Your data starts at <code>/api/me</code>. <Link href="/connections">Connect your tools</Link> so dashboards can
            read them as you.
          </p>
        </section>
      ) : (
        <p>
          <a className="button primary" href="/signin">
            Sign in
          </a>{" "}
          to see your data.
        </p>
      )}
    </div>
  );
}

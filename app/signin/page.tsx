import { redirect } from "next/navigation";
import { app } from "@/lib/root";
import { demoUsers } from "@/demo/users";
import { safeNextPath } from "@/lib/http/origin";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

const errors: Record<string, string> = {
  unknown_user: "That account is not one of the demo users. Pick one below.",
  oidc_failed: "Sign-in with your identity provider did not complete. Try again.",
};

/** A query parameter's first value: one given twice arrives as a list. */
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function SignIn({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const next = safeNextPath(first(sp.next));
  const errorCode = first(sp.error);
  const error = errorCode ? (Object.hasOwn(errors, errorCode) ? errors[errorCode] : "Sign-in did not complete. Try again.") : undefined;
  if (app().config.oidc) {
    // After a failure, show it rather than sending the browser straight back into the flow.
    if (!error) redirect(`/signin/oidc?next=${encodeURIComponent(next)}`);
    return (
      <div className="stack">
        <h1>Sign in</h1>
        <p role="alert" className="error-text">
          {error}
        </p>
        <p>
          <a className="button primary" href={`/signin/oidc?next=${encodeURIComponent(next)}`}>
            Try again
          </a>
        </p>
      </div>
    );
  }
  return (
    <div className="stack">
      <h1>Sign in</h1>
      <p className="muted">This deployment uses demo sign-in. Choose who to be.</p>
      {error ? (
        <p role="alert" className="error-text">
          {error}
        </p>
      ) : null}
      <ul className="user-list card" aria-label="Demo users">
        {demoUsers.map((u) => (
          <li key={u.email}>
            <span>
              <strong>{u.name}</strong> <span className="muted">{u.email}</span>
              <br />
              <span className="muted">{u.groups.length ? `Groups: ${u.groups.join(", ")}` : "No groups"}</span>
            </span>
            <form method="post" action="/signin/demo">
              <input type="hidden" name="email" value={u.email} />
              <input type="hidden" name="next" value={next} />
              <button type="submit" className="primary" data-testid={`signin-${u.email}`}>
                Sign in as {u.name}
              </button>
            </form>
          </li>
        ))}
      </ul>
    </div>
  );
}

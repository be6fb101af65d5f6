import Link from "next/link";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { FreezeSnapshot } from "./FreezeSnapshot";
import type { AccessProblem } from "./access-problem";
import type { SavedMessage } from "./useSavedActions";
import styles from "./saved.module.css";

export const When = ({ iso }: { iso: string }) => <RelativeTime ms={Date.parse(iso)} />;

function ProblemText({ problem }: { problem: AccessProblem }) {
  switch (problem.kind) {
    case "permission":
      return (
        <>
          This dashboard reads {problem.reads}; your account lacks <code>{problem.permission}</code>, so the parts that need it stay empty. An admin can
          grant it, or you can look at it with demo data.
        </>
      );
    case "connection":
      return (
        <>
          This dashboard reads {problem.reads} through a tool you have not connected yet. <Link href="/connections">Connect it on Connections</Link>,
          then reload this page.
        </>
      );
    case "forbidden":
      return <>Some of what this dashboard reads is not available to your account, so parts of it stay empty.</>;
  }
}

interface SavedHeaderProps {
  path: string;
  title: string;
  owner: { handle: string; name: string };
  latest: { revision: number };
  shown: { revision: number; savedAt: string };
  viewer: { csrf: string; isOwner: boolean };
  data: "live" | "demo" | "waiting";
  problems: readonly AccessProblem[];
  message: SavedMessage;
  ready: boolean;
  restore: (revision: number) => Promise<boolean>;
}

/** The saved dashboard's title, byline, message, old-revision notice and the access problems met. */
export function SavedHeader({ path, title, owner, latest, shown, viewer, data, problems, message, ready, restore }: SavedHeaderProps) {
  const old = shown.revision !== latest.revision;
  const liveText = problems.length > 0 ? "your data, where your account may read it" : "your live data";
  return (
    <>
      {/* The title and the author's name are theirs: isolated, neither can reorder what is around it. */}
      <h1 id="saved-title">
        <bdi>{title}</bdi>
      </h1>
      <p className="muted" data-testid="saved-meta">
        By <bdi>{owner.name}</bdi> (<a href={`/~/${owner.handle}`}>/~/{owner.handle}</a>) · revision <span data-testid="saved-revision">{shown.revision}</span> · saved{" "}
        <When iso={shown.savedAt} /> ·{" "}
        {data === "live" ? liveText : data === "demo" ? "demo data instead of yours" : "waiting for your consent to use your data"}
      </p>
      {viewer.isOwner ? <FreezeSnapshot path={path} revision={shown.revision} csrf={viewer.csrf} /> : null}
      <p role="status" className={styles.message}>
        {message ? <span className={message.kind === "error" ? "error-text" : undefined}>{message.text}</span> : null}
      </p>
      {old ? (
        <p className={styles.notice} data-testid="old-revision">
          You are looking at revision {shown.revision}; the latest is {latest.revision}. <a href={path}>Show the latest</a>
          {viewer.isOwner ? (
            <>
              {" "}
              or{" "}
              <button type="button" onClick={() => void restore(shown.revision)} disabled={!ready}>
                Restore revision {shown.revision}
              </button>
            </>
          ) : null}
        </p>
      ) : null}
      {problems.length > 0 && data === "live" ? (
        <div className={styles.problem} role="status" data-testid="saved-problem">
          {problems.map((p) => (
            <p key={JSON.stringify(p)}>
              <ProblemText problem={p} />
            </p>
          ))}
        </div>
      ) : null}
    </>
  );
}

import type { Connection } from "./useDraftStream";
import styles from "./watch.module.css";

const clock = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

export function ConnectionState({ connection }: { connection: Connection }) {
  const [text, cls] =
    connection.kind === "live"
      ? ["live", styles.live]
      : connection.kind === "reconnecting"
        ? ["reconnecting", styles.reconnecting]
        : connection.kind === "stale"
          ? [`not updating since ${clock(connection.since)}`, styles.stale]
          : connection.kind === "static"
            ? ["rendered once, not following updates", ""]
            : ["connecting", ""];
  return (
    <p className={`${styles.state} ${cls}`} role="status" aria-live="polite" data-testid="connection-state" data-state={connection.kind}>
      {text}
    </p>
  );
}

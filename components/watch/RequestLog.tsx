import type { RequestLogEntry } from "@/components/dashboard-frame/DashboardFrame";
import styles from "./watch.module.css";

export function RequestLog({ entries }: { entries: RequestLogEntry[] }) {
  return (
    <details className={styles.log} data-testid="request-log">
      <summary>Requests ({entries.length})</summary>
      {entries.length === 0 ? (
        <p className="muted">The dashboard has not asked for any data yet.</p>
      ) : (
        <table>
          <caption className="muted">Newest first</caption>
          <thead>
            <tr>
              <th scope="col">Path</th>
              <th scope="col">Status</th>
              <th scope="col">Time</th>
              <th scope="col">Data</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e, i) => (
              <tr key={`${e.at}-${i}`} data-testid="request-log-entry">
                <td className={styles.path}>{e.path}</td>
                <td className={e.status >= 400 ? styles.bad : undefined}>{e.status}</td>
                <td>{e.ms} ms</td>
                <td>{e.mode}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

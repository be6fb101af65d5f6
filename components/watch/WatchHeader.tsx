import { SaveToSpace, type SavedRef, type Saver } from "@/components/saved/SaveToSpace";
import { RelativeTime } from "@/components/ui/RelativeTime";
import type { DraftView } from "@/lib/contract/playground";
import { htmlTitle } from "@/lib/saved/slug";
import styles from "./watch.module.css";

interface WatchHeaderProps {
  view: DraftView;
  name: string;
  /** Drawn by the site (the safe view) rather than the frame. */
  safe: boolean;
  data: "live" | "demo" | "waiting";
  saver?: Saver | null;
  savedRef: SavedRef | null;
  onSaved: (ref: SavedRef) => void;
}

/** The watched draft's name, its provenance line and, for a signed-in watcher, saving it to their space. */
export function WatchHeader({ view, name, safe, data, saver, savedRef, onSaved }: WatchHeaderProps) {
  const live = view.dataMode === "live";
  const dataText = !live
    ? `demo data · scenario ${view.scenario}${forcedText(view.examples)}`
    : safe
      ? "your live data, drawn by this site"
      : data === "demo"
        ? "demo data instead of yours"
        : data === "waiting"
          ? "waiting for your consent to use your data"
          : "your live data";
  return (
    <>
      {/* The draft names itself: isolated, a right-to-left name cannot take "Watching" with it. */}
      <h1 id="watch-title">
        Watching <bdi>{name}</bdi>
      </h1>
      <p className={`${styles.meta} muted`} data-testid="provenance">
        Revision <span data-testid="revision">{view.revision}</span> · {dataText} · updated <RelativeTime ms={view.updatedAt} />
      </p>
      {saver ? (
        <div className={styles.save}>
          <SaveToSpace
            handle={saver.handle}
            csrf={saver.csrf}
            suggested={view.dash ?? htmlTitle(view.html)}
            html={view.html}
            note={`From playground draft revision ${view.revision}`}
            saved={savedRef}
            onSaved={onSaved}
          />
        </div>
      ) : null}
    </>
  );
}

/** The variants forced over the scenario, as the provenance line names them (the first three, then a count). */
function forcedText(examples: Record<string, string>): string {
  const forced = Object.entries(examples);
  if (forced.length === 0) return "";
  const named = forced.slice(0, 3).map(([path, variant]) => `${path} forced to ${variant}`);
  return ` · ${named.join(", ")}${forced.length > 3 ? ` and ${forced.length - 3} more` : ""}`;
}

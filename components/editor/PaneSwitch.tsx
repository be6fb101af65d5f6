"use client";

import styles from "./editor.module.css";

export type Pane = "code" | "preview";

/** On a phone, which of the two panes fills the screen; not shown where both fit side by side. */
export function PaneSwitch({ pane, onPane }: { pane: Pane; onPane: (pane: Pane) => void }) {
  return (
    <fieldset className={styles.paneSwitch} data-testid="pane-switch">
      <legend className={styles.visuallyHidden}>Show</legend>
      <label>
        <input type="radio" name="editor-pane-shown" value="code" checked={pane === "code"} onChange={() => onPane("code")} />
        <span>Code</span>
      </label>
      <label>
        <input type="radio" name="editor-pane-shown" value="preview" checked={pane === "preview"} onChange={() => onPane("preview")} />
        <span>Preview</span>
      </label>
    </fieldset>
  );
}

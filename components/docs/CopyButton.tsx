"use client";

import { useState } from "react";
import styles from "./docs.module.css";

// Copies the text of the code block it names, so the snippet is sent to the page once.

export function CopyButton({ targetId, label }: { targetId: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    const text = document.getElementById(targetId)?.textContent ?? "";
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  }
  return (
    <span className={styles.copy}>
      <button type="button" aria-label={label} onClick={copy} data-testid="copy-button">
        Copy
      </button>
      <span role="status" className={styles.copyStatus}>
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed: select the text instead" : ""}
      </span>
    </span>
  );
}

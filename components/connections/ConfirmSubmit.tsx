"use client";

import { useRef, useState, type ReactNode } from "react";
import { useInteractive } from "@/components/interactive";
import { ConfirmDialog } from "@/components/ui/ConfirmDialog";
import styles from "./connections.module.css";

// A form button that deletes something (a stored token): it asks in a dialog first, and only
// the dialog's own button posts the form. Until the page is interactive there is no dialog to
// ask with, so the button waits rather than deleting unasked.

interface ConfirmSubmitProps {
  action: string;
  label: string;
  /** Added for screen readers, so each card's button has a name of its own. */
  srLabel?: string;
  question: string;
  confirmLabel: string;
  children: ReactNode;
}

export function ConfirmSubmit({ action, label, srLabel, question, confirmLabel, children }: ConfirmSubmitProps) {
  const form = useRef<HTMLFormElement>(null);
  const [asking, setAsking] = useState(false);
  const interactive = useInteractive();
  return (
    <form
      ref={form}
      method="post"
      action={action}
      onSubmit={(e) => {
        e.preventDefault();
        setAsking(true);
      }}
    >
      <button type="submit" className="danger" disabled={!interactive}>
        {label}
        {srLabel ? <span className={styles.srOnly}> {srLabel}</span> : null}
      </button>
      <ConfirmDialog
        open={asking}
        title={question}
        confirmLabel={confirmLabel}
        danger
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          // submit() skips the submit event, so this posts without asking again.
          form.current?.submit();
        }}
      >
        {children}
      </ConfirmDialog>
    </form>
  );
}

"use client";

import { useId, type ReactNode } from "react";
import { useModalDialog } from "./useModalDialog";

// A question asked before something that cannot be undone, in place of window.confirm(): a modal
// <dialog>, so the browser keeps focus inside it, Escape cancels and the page behind is inert.
// Focus starts on Cancel, the answer that changes nothing, and returns to whatever opened it.

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  /** The words of the button that goes ahead: "Disconnect", "Delete". */
  confirmLabel: string;
  cancelLabel?: string;
  /** Styles the confirm button as a destructive action. */
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, children, confirmLabel, cancelLabel = "Cancel", danger, onConfirm, onCancel } = props;
  const { dialog, first: cancel, onClose } = useModalDialog<HTMLButtonElement>(open, onCancel);
  const id = useId();

  return (
    <dialog ref={dialog} className="confirm" aria-labelledby={`${id}-title`} aria-describedby={children ? `${id}-body` : undefined} onClose={onClose}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children ? <div id={`${id}-body`}>{children}</div> : null}
      <div className="confirm-actions">
        <button type="button" ref={cancel} onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className={danger ? "danger solid" : "primary"} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

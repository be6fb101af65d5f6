"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";

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
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  const id = useId();

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) {
      opener.current = document.activeElement;
      el.showModal();
      cancel.current?.focus();
    } else if (!open && el.open) {
      el.close();
    }
  }, [open]);

  // However the dialog closes (a button, Escape), the parent hears of it and focus goes back.
  const onClose = () => {
    const back = opener.current;
    opener.current = null;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
    if (open) onCancel();
  };

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

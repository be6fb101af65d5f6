"use client";

import { useEffect, useRef, type RefObject } from "react";

/**
 * A modal <dialog> driven by an `open` prop: shown with showModal() (focus stays inside, Escape
 * closes it, the page behind is inert), focus put on `first` when it opens, and given back to
 * whatever had it before once the dialog closes, however it closes. `onDismissed` runs when the
 * dialog closes while the parent still thinks it open (Escape), so the parent can catch up.
 */
export function useModalDialog<T extends HTMLElement>(
  open: boolean,
  onDismissed: () => void,
): { dialog: RefObject<HTMLDialogElement | null>; first: RefObject<T | null>; onClose: () => void } {
  const dialog = useRef<HTMLDialogElement>(null);
  const first = useRef<T>(null);
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) {
      opener.current = document.activeElement;
      el.showModal();
      first.current?.focus();
    } else if (!open && el.open) {
      el.close();
    }
  }, [open]);

  const onClose = () => {
    const back = opener.current;
    opener.current = null;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
    if (open) onDismissed();
  };

  return { dialog, first, onClose };
}

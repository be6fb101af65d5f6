"use client";

import { useEffect, useState } from "react";
import { useModalDialog } from "@/components/ui/useModalDialog";
import styles from "./editor.module.css";

// The editor's keyboard shortcuts in one list, opened with "?" (outside a text field) or the
// Shortcuts button: a modal <dialog>, so focus stays in it, Escape closes it, and focus goes back
// to whatever opened it.

const mod = "Ctrl/⌘";

const SHORTCUTS: readonly { keys: string; what: string }[] = [
  { keys: "Esc, then Tab", what: "Leave the editor (Tab alone indents)" },
  { keys: `${mod}+S`, what: "Save a new revision to your space when signed in (the first save asks for a title and an address); share the draft otherwise" },
  { keys: `${mod}+Z`, what: "Undo (the history survives a reload)" },
  { keys: `${mod}+Shift+Z or ${mod}+Y`, what: "Redo" },
  { keys: `${mod}+F`, what: "Find in the source" },
  { keys: `${mod}+/`, what: "Comment or uncomment the line" },
  { keys: "Alt+↑ / Alt+↓", what: "Move the line up or down" },
  { keys: `${mod}+Space`, what: "Complete a tag or attribute" },
  { keys: "?", what: "This list (outside the editor and text fields)" },
];

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { dialog, first: closeButton, onClose: onDialogClose } = useModalDialog<HTMLButtonElement>(open, onClose);

  return (
    <dialog ref={dialog} className="confirm" aria-labelledby="shortcuts-title" onClose={onDialogClose} data-testid="shortcuts">
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table className={styles.shortcuts}>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <th scope="row">
                <kbd>{s.keys}</kbd>
              </th>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="confirm-actions">
        <button type="button" ref={closeButton} onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}

/** Whether a key press is typing in a field, where "?" is a character and not a command. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && !["button", "checkbox", "radio", "submit", "reset"].includes((target as HTMLInputElement).type));
}

/** Whether the list is open: "?" outside a text field opens it, as does `open()`. */
export function useShortcuts() {
  const [isOpen, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return { isOpen, open: () => setOpen(true), close: () => setOpen(false) };
}

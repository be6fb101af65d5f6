import type { RefObject } from "react";
import type { CodeEditorHandle } from "./CodeEditor";

/**
 * Format in the editor's More menu: the source re-indented to follow its nesting, when the
 * formatted copy reads the same. The check (the HTML parser with it) is fetched when Format is
 * first pressed, not with the editor.
 */
export async function formatSource(editor: RefObject<CodeEditorHandle | null>, html: string, announce: (text: string) => void): Promise<void> {
  const before = editor.current?.value() ?? html;
  const { formatChecked } = await import("./format-check");
  const outcome = formatChecked(before);
  // Typed over while the check loaded: what was checked is no longer the document.
  if ((editor.current?.value() ?? html) !== before) return;
  if (outcome.kind === "refused") announce(outcome.message);
  else if (outcome.kind === "unchanged") announce("Already formatted.");
  else {
    editor.current?.replaceAll(outcome.text);
    announce("Formatted: indentation follows the nesting. Undo puts it back.");
  }
}

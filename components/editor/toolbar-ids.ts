// Ids the toolbar's parts point at each other with (aria-controls, focus handed back).
export const MORE_ID = "editor-more";
export const MORE_TOGGLE_ID = "editor-more-toggle";

/** Focus to `id` where it is on screen, else to the More button whose menu holds it. */
export function focusToolbarControl(id: string): void {
  const el = document.getElementById(id);
  if (el && el.offsetParent !== null) el.focus();
  else document.getElementById(MORE_TOGGLE_ID)?.focus();
}

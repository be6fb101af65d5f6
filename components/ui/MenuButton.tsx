"use client";

import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

// The menu button pattern: a button that opens a list of actions (role="menu"), each a
// role="menuitem" supplied by the caller. Opening puts focus on the first action; the arrow keys,
// Home and End move between them; Escape closes and gives focus back to the button; Tab, a click
// outside or an action taken closes it.

interface MenuButtonProps {
  /** The menu's id (the button's aria-controls). */
  id: string;
  /** The button's text. */
  label: ReactNode;
  /** The menu's accessible name. */
  menuLabel: string;
  buttonId?: string;
  buttonClassName?: string;
  menuClassName?: string;
  className?: string;
  disabled?: boolean;
  /** The actions: elements with role="menuitem". A hidden one (display: none) is skipped. */
  children: ReactNode;
  testId?: string;
}

/** The actions of `menu` that can take focus now, in order. */
function itemsOf(menu: HTMLElement | null): HTMLElement[] {
  if (!menu) return [];
  return [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')].filter((el) => el.offsetParent !== null && !(el as HTMLButtonElement).disabled);
}

export function MenuButton({ id, label, menuLabel, buttonId, buttonClassName, menuClassName, className, disabled, children, testId }: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  // Which action takes focus once the menu is drawn: the first, or the last (ArrowUp on the button).
  const focusOnOpen = useRef<"first" | "last">("first");

  useEffect(() => {
    if (!open) return;
    const items = itemsOf(menu.current);
    (focusOnOpen.current === "last" ? items.at(-1) : items[0])?.focus();
    const outside = (e: PointerEvent) => {
      if (box.current && e.target instanceof Node && !box.current.contains(e.target)) setOpen(false);
    };
    // A click into a frame (the preview) never reaches this document: the window losing focus says it.
    const left = () => setOpen(false);
    document.addEventListener("pointerdown", outside, true);
    window.addEventListener("blur", left);
    return () => {
      document.removeEventListener("pointerdown", outside, true);
      window.removeEventListener("blur", left);
    };
  }, [open]);

  const show = (at: "first" | "last") => {
    focusOnOpen.current = at;
    setOpen(true);
  };
  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    e.preventDefault();
    show(e.key === "ArrowUp" ? "last" : "first");
  };

  const onMenuKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close(true);
      return;
    }
    if (e.key === "Tab") {
      setOpen(false);
      return;
    }
    const items = itemsOf(menu.current);
    if (items.length === 0) return;
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next =
      e.key === "ArrowDown" ? (at + 1) % items.length : e.key === "ArrowUp" ? (at - 1 + items.length) % items.length : e.key === "Home" ? 0 : e.key === "End" ? items.length - 1 : null;
    if (next === null) return;
    e.preventDefault();
    items[next]?.focus();
  };

  return (
    <div ref={box} className={className}>
      <button
        ref={button}
        type="button"
        id={buttonId}
        className={buttonClassName}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
        disabled={disabled}
        onClick={() => (open ? close(true) : show("first"))}
        onKeyDown={onButtonKey}
        data-testid={testId}
      >
        {label}
      </button>
      <div
        ref={menu}
        id={id}
        role="menu"
        aria-label={menuLabel}
        className={menuClassName}
        hidden={!open}
        onKeyDown={onMenuKey}
        // An action taken closes the menu, focus back on its button, before anything the action
        // opens (a dialog, a drawer) takes focus from there.
        onClick={(e) => {
          if (e.target instanceof Element && e.target.closest('[role="menuitem"]')) close(true);
        }}
      >
        {children}
      </div>
    </div>
  );
}

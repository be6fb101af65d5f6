"use client";

import { useEffect, useState, type RefObject } from "react";
import { usePaneSplit } from "./usePaneSplit";

/** The editor's share of the width, in percent, and how far the splitter may move it. */
export const SPLIT_MIN = 25;
export const SPLIT_MAX = 75;
const SPLIT_DEFAULT = 50;
/**
 * The dock under the panes (the check's findings, the console) in px: tall enough that the first
 * finding reads whole and three fit at 1440×900, never so tall the panes above drop under PANES_MIN.
 */
export const DOCK_MIN = 150;
const DOCK_DEFAULT = 340;
const DOCK_LIMIT = 4_000;
const PANES_MIN = 200;

/**
 * The workspace's layout: the split between source and preview and the dock's height, each kept
 * for the next visit, and whether either is being dragged, in the element `workspace` holds.
 */
export function useEditorLayout(workspace: RefObject<HTMLElement | null>) {
  const [split, setSplit] = usePaneSplit("playground.editor-split", SPLIT_DEFAULT, SPLIT_MIN, SPLIT_MAX);
  const [dockKept, setDock] = usePaneSplit("playground.dock-height", DOCK_DEFAULT, DOCK_MIN, DOCK_LIMIT);
  // The dock may grow until the panes above it would be shorter than PANES_MIN, in this window.
  const [dockMax, setDockMax] = useState(DOCK_LIMIT);
  useEffect(() => {
    const el = workspace.current;
    if (!el || typeof ResizeObserver !== "function") return;
    const observer = new ResizeObserver(() => setDockMax(Math.max(DOCK_MIN, el.clientHeight - PANES_MIN)));
    observer.observe(el);
    return () => observer.disconnect();
  }, [workspace]);
  const dock = Math.min(dockKept, dockMax);
  const [resizing, setResizing] = useState(false);
  return { split, setSplit, dock, setDock, dockMax, resizing, setResizing };
}

export type EditorLayout = ReturnType<typeof useEditorLayout>;

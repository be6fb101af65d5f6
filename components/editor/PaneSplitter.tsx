"use client";

import { useRef, type KeyboardEvent, type PointerEvent, type RefObject } from "react";
import styles from "./editor.module.css";

interface PaneSplitterProps {
  /** The first pane's share of the container's width, in percent. */
  value: number;
  onChange: (value: number) => void;
  min: number;
  max: number;
  /** The element whose width the percentages are of. */
  container: RefObject<HTMLElement | null>;
  /** The id of the pane this separator sizes. */
  controls: string;
  label: string;
  /** A drag starts or ends. */
  onDragging?: (dragging: boolean) => void;
}

const STEP = 2;
const BIG_STEP = 10;

/**
 * The handle between two panes (the ARIA window splitter pattern): dragged with a pointer, or
 * focused and moved with the arrow keys (Shift for bigger steps), Home and End.
 */
export function PaneSplitter({ value, onChange, min, max, container, controls, label, onDragging }: PaneSplitterProps) {
  const dragging = useRef(false);
  const clamp = (v: number) => Math.min(max, Math.max(min, Math.round(v * 10) / 10));

  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.shiftKey ? BIG_STEP : STEP;
    const next =
      e.key === "ArrowLeft" ? value - step : e.key === "ArrowRight" ? value + step : e.key === "Home" ? min : e.key === "End" ? max : null;
    if (next === null) return;
    e.preventDefault();
    onChange(clamp(next));
  };

  const moveTo = (clientX: number) => {
    const box = container.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    onChange(clamp(((clientX - box.left) / box.width) * 100));
  };

  // Capture alone does not keep the moves once the pointer is over a frame (the frame's document
  // gets them), so the container is told, to stop its frames taking the pointer while it drags.
  const setDragging = (on: boolean) => {
    dragging.current = on;
    onDragging?.(on);
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus();
    setDragging(true);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) moveTo(e.clientX);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    setDragging(false);
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };

  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-controls={controls}
      aria-valuenow={Math.round(value)}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      className={styles.splitter}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      data-testid="pane-splitter"
    />
  );
}

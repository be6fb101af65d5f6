"use client";

import { useRef, type KeyboardEvent, type PointerEvent, type RefObject } from "react";
import styles from "./editor.module.css";

interface PaneSplitterProps {
  /**
   * Vertical (the default): the first pane's share of the container's width, in percent.
   * Horizontal: the height in px of the pane below the separator, at the container's bottom.
   */
  value: number;
  orientation?: "vertical" | "horizontal";
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
  /** How a value reads aloud ("240 pixels"), when the number alone does not say. */
  valueText?: string;
  className?: string;
  testId?: string;
}

/** The arrow keys' steps, and Shift's: percent across, pixels up and down. */
const STEPS = { vertical: [2, 10], horizontal: [16, 64] } as const;

/**
 * The handle between two panes (the ARIA window splitter pattern): dragged with a pointer, or
 * focused and moved with the arrow keys (Shift for bigger steps), Home and End.
 */
export function PaneSplitter(props: PaneSplitterProps) {
  const { value, onChange, min, max, container, controls, label, onDragging, orientation = "vertical", valueText, className, testId } = props;
  const dragging = useRef(false);
  const clamp = (v: number) => Math.min(max, Math.max(min, Math.round(v * 10) / 10));
  const across = orientation === "vertical";

  const onKeyDown = (e: KeyboardEvent) => {
    const step = STEPS[orientation][e.shiftKey ? 1 : 0];
    // Across, the separator moves the way the arrow points; up and down, the pane below grows
    // as the separator rises.
    const [less, more] = across ? ["ArrowLeft", "ArrowRight"] : ["ArrowDown", "ArrowUp"];
    const next = e.key === less ? value - step : e.key === more ? value + step : e.key === "Home" ? min : e.key === "End" ? max : null;
    if (next === null) return;
    e.preventDefault();
    onChange(clamp(next));
  };

  const moveTo = (clientX: number, clientY: number) => {
    const box = container.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    onChange(clamp(across ? ((clientX - box.left) / box.width) * 100 : box.bottom - clientY));
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
    if (dragging.current) moveTo(e.clientX, e.clientY);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    setDragging(false);
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };

  return (
    <div
      role="separator"
      aria-orientation={orientation}
      aria-label={label}
      aria-controls={controls}
      aria-valuenow={Math.round(value)}
      aria-valuemin={Math.round(min)}
      aria-valuemax={Math.round(max)}
      aria-valuetext={valueText}
      tabIndex={0}
      className={className ?? styles.splitter}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      data-testid={testId ?? "pane-splitter"}
    />
  );
}

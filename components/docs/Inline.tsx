import type { ReactNode } from "react";

// The reference's inline markup (`code`, **strong**, [text](href)) as React, so the prose in
// lib/reference renders here exactly as it does in the Markdown sections.

const token = /(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\([^)\s]+\))/g;

export function Inline({ text }: { text: string }): ReactNode {
  const parts = text.split(token);
  return parts.map((part, i) => {
    if (i % 2 === 0) return part;
    if (part.startsWith("`")) return <code key={i}>{part.slice(1, -1)}</code>;
    if (part.startsWith("**")) return <strong key={i}>{part.slice(2, -2)}</strong>;
    const m = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
    return m ? (
      <a key={i} href={m[2]}>
        <Inline text={m[1] ?? ""} />
      </a>
    ) : (
      part
    );
  });
}

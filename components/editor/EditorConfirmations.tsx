"use client";

import { ConfirmDialog } from "@/components/ui/ConfirmDialog";
import type { EditorSource } from "./useEditorSource";
import type { LeaveGuard } from "./useLeaveGuard";

/** The two questions the editor asks before edits are lost: loading an example over them, and leaving. */
export function EditorConfirmations({ source, shared, leaving }: { source: EditorSource; shared: boolean; leaving: LeaveGuard }) {
  return (
    <>
      <ConfirmDialog
        open={source.pendingExample !== null}
        title={`Load the “${source.pendingExample?.label ?? ""}” example?`}
        confirmLabel="Load it"
        cancelLabel="Keep my edits"
        danger
        onConfirm={() => source.answerPending(true)}
        onCancel={() => source.answerPending(false)}
      >
        <p>{shared ? "Your edits will be lost, and watchers will see the example as the next revision." : "Your edits will be lost."}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={leaving.pendingHref !== null}
        title="Leave the playground?"
        confirmLabel="Leave"
        cancelLabel="Stay"
        danger
        onConfirm={() => leaving.answer(true)}
        onCancel={() => leaving.answer(false)}
      >
        <p>Your edits are not shared or saved, and this browser cannot keep them: they will be lost.</p>
      </ConfirmDialog>
    </>
  );
}

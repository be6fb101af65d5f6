import "server-only";
import type { EditorExample } from "@/components/editor/PlaygroundEditor";
import { dashboardExamples } from "@/demo/examples";
import { examplePicture } from "@/demo/examples/pictures";
import { checkDraft } from "@/lib/check";

// The check runs here once, so the editor opens with findings and loads the check's code only
// when the author starts editing.
export const editorExamples: readonly EditorExample[] = dashboardExamples.map((e) => ({ ...e, warnings: checkDraft(e.html), picture: examplePicture(e.id) }));

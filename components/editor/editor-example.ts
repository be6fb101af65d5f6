import type { DraftWarning } from "@/lib/contract/resources";
import type { ExamplePicture } from "@/demo/examples/pictures";

/** A document the editor can start from: one of the gallery's examples, or one handed over. */
export interface EditorExample {
  id: string;
  label: string;
  /** One sentence for the gallery. */
  description: string;
  html: string;
  /** The static check's findings for `html`, computed where the page was made. */
  warnings?: readonly DraftWarning[];
  /** The example rendered under demo data, for the gallery. */
  picture?: ExamplePicture;
  /**
   * Where the document came from, as the consent question names it, when it is not one of the
   * gallery's examples; `own` when it is the viewer's own saved dashboard.
   */
  source?: { from: string; own: boolean };
}

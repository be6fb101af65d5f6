import { expect, test } from "@playwright/test";
import { expectWcagAaClean } from "./support/axe";
import { PlaygroundEditorPage } from "./support/editor-page";

// Format on the production build: a document it cannot re-read to the same content is left as
// it is, with a message naming the line; a well-formed one is re-indented.

// The document: a <script> left open swallows the rest as script text.
const openScript = ["<!doctype html>", "<html><body>", "<h1>Hi</h1><script>const a = 1 +", "<p>after</p></body></html>"].join("\n");

// Its script starts on the <script> line, which Format once wrote out twice.
const wellFormed = ["<!doctype html>", "<main>", "<h1>Hi</h1>", "<pre>", "   kept</pre>", "<script>const a = 1 +", "      2;", "const t = `", "   as typed`;", "</script>", "</main>"].join("\n");

/** Every line of the editor's text (a short document: CodeMirror draws all of its lines). */
async function editorLines(editor: PlaygroundEditorPage): Promise<string[]> {
  return editor
    .source()
    .locator(".cm-line")
    .evaluateAll((lines) => lines.map((l) => l.textContent ?? ""));
}

test.describe("at 1440×900", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("Format leaves a document with an open <script> as it is and says which line", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await editor.replaceWith(openScript);
    await expect.poll(() => editorLines(editor)).toEqual(openScript.split("\n"));
    await editor.format();
    await expect(editor.status()).toHaveText("Line 3: this <script> is never closed; Format leaves the document as it is.");
    await expect(editor.toast()).toHaveText("Line 3: this <script> is never closed; Format leaves the document as it is.");
    // The refusal is read out: the status line is a polite live region.
    await expect(editor.status()).toHaveAttribute("role", "status");
    expect(await editorLines(editor)).toEqual(openScript.split("\n"));
    await expectWcagAaClean(page);
  });

  test("Format re-indents a well-formed document, keeping <pre>, template literals and the script's own indentation", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await editor.replaceWith(wellFormed);
    await expect.poll(() => editorLines(editor)).toEqual(wellFormed.split("\n"));
    await editor.format();
    await expect(editor.status()).toHaveText("Formatted: indentation follows the nesting. Undo puts it back.");
    await expect
      .poll(() => editorLines(editor))
      .toEqual(["<!doctype html>", "<main>", "  <h1>Hi</h1>", "  <pre>", "   kept</pre>", "  <script>const a = 1 +", "          2;", "    const t = `", "   as typed`;", "  </script>", "</main>"]);
  });
});

// The safe view's document: someone else's dashboard drawn by the service's own browser on the
// viewer's data, handed to the viewer's browser with no script and no way to start a request.
//
//   const captured: unknown = await frame.evaluate(CAPTURE_SCRIPT); // in the dashboard's frame
//   const html = inertDocument(captured);                           // <!doctype html>…
//   <iframe {...INERT_FRAME_ATTRIBUTES} srcDoc={html} />            // ./policy: the page's side
export { CAPTURE_SCRIPT } from "./capture";
export { InertDocumentError, inertDocument } from "./document";

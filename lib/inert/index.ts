// The safe view's document: someone else's dashboard drawn by the service's own browser on the
// viewer's data, handed to the viewer's browser with no script and no way to start a request.
//
//   const captured: unknown = await frame.evaluate(CAPTURE_SCRIPT); // in the dashboard's frame
//   const { height } = readCapture(captured);                       // the frame's height to set
//   const html = inertDocument(captured);                           // <!doctype html>…
//   <iframe {...INERT_FRAME_ATTRIBUTES} srcDoc={html} />            // or served with INERT_FRAME_CSP
export { CAPTURE_SCRIPT } from "./capture";
export { INERT_LIMITS, InertDocumentError, inertDocument, readCapture, type CapturedDocument, type InertErrorCode, type InertOptions } from "./document";
export { INERT_CSP, INERT_FRAME_ATTRIBUTES, INERT_FRAME_CSP } from "./policy";

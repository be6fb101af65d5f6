import thumbnails from "./thumbnails.json";

/** A gallery picture: one example rendered under demo data (`npm run thumbnails`). */
export interface ExamplePicture {
  src: string;
  width: number;
  height: number;
}

const manifest: Record<string, { file: string; hash: string; width: number; height: number }> = thumbnails;

/** The picture of an example, addressed by its content, so a new picture is never an old one from a cache. */
export function examplePicture(id: string): ExamplePicture | undefined {
  const entry = manifest[id];
  return entry ? { src: `/examples/${entry.file}?v=${entry.hash}`, width: entry.width, height: entry.height } : undefined;
}

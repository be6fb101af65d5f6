import { DraftNotFound } from "@/components/watch/WatchDraft";

// A watch link whose draft is unknown or gone answers 404 with the watch page's own words.
export default function WatchNotFound() {
  return <DraftNotFound />;
}

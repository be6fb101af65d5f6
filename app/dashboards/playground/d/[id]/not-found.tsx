import { DraftNotFound } from "@/components/watch/WatchDraft";

// A draft address whose draft is unknown or gone answers 404 with the watch page's words.
export default function DraftAddressNotFound() {
  return <DraftNotFound />;
}

"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { humanPost, postJson } from "./human-fetch";

interface SavedActionsArgs {
  path: string;
  title: string;
  viewer: { csrf: string; starred: boolean; isHome: boolean };
}

export type SavedMessage = { kind: "ok" | "error"; text: string } | null;

/** The saved dashboard's own actions (star, home, restore): one at a time, each ending in a message. */
export function useSavedActions({ path, title, viewer }: SavedActionsArgs) {
  const router = useRouter();
  const [starred, setStarred] = useState(viewer.starred);
  const [isHome, setIsHome] = useState(viewer.isHome);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<SavedMessage>(null);

  const act = async (name: string, run: () => Promise<{ ok: true } | { ok: false; message: string }>, done: string) => {
    setBusy(name);
    setMessage(null);
    const res = await run();
    setBusy(null);
    setMessage(res.ok ? { kind: "ok", text: done } : { kind: "error", text: res.message });
    return res.ok;
  };

  const toggleStar = () =>
    act(
      "star",
      async () => {
        const res = await postJson("/account/favourites", viewer.csrf, starred ? { op: "remove", href: path } : { op: "add", href: path, label: title });
        if (res.ok) setStarred(!starred);
        return res;
      },
      starred ? "Removed from your favourites." : "Added to your favourites.",
    );

  const toggleHome = () =>
    act(
      "home",
      async () => {
        const res = await postJson("/account/home", viewer.csrf, { path: isHome ? null : path });
        if (res.ok) {
          setIsHome(!isHome);
          // The site header links the start page only while a home is set.
          router.refresh();
        }
        return res;
      },
      isHome ? "Home cleared: / shows the start page again." : "This dashboard is now your home: / opens it.",
    );

  const restore = (revision: number) =>
    act(
      `restore-${revision}`,
      async () => {
        const source = await fetch(`${path}/source?revision=${revision}`, { cache: "no-store" });
        if (!source.ok) return { ok: false, message: `Revision ${revision} could not be read (${source.status}).` };
        const res = await humanPost<{ revision: number }>(path, viewer.csrf, await source.text(), "text/html; charset=utf-8", {
          "x-save-note": `Restored from revision ${revision}`,
        });
        if (res.ok) router.push(path);
        router.refresh();
        return res;
      },
      `Revision ${revision} restored as a new revision.`,
    );

  return { starred, isHome, busy, message, toggleStar, toggleHome, restore };
}

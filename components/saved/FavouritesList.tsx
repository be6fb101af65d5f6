"use client";

import { useState } from "react";
import { useInteractive } from "@/components/interactive";
import { postJson } from "./human-fetch";
import styles from "./saved.module.css";

interface Favourite {
  href: string;
  label: string;
}

interface FavouritesListProps {
  favourites: Favourite[];
  /** Present when the person may change the list from this page. */
  csrf?: string;
  /** Called with the list as stored after each change. */
  onChanged?: (favourites: Favourite[]) => void;
}

/** Favourites in render order, with move up/down and unstar when the page can act. */
export function FavouritesList({ favourites, csrf, onChanged }: FavouritesListProps) {
  const [sending, setSending] = useState(false);
  const interactive = useInteractive();
  const busy = sending || !interactive;
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  const send = async (body: unknown, done: string) => {
    if (!csrf) return;
    setSending(true);
    const res = await postJson<{ favourites: Favourite[] }>("/account/favourites", csrf, body);
    setSending(false);
    if (res.ok) {
      onChanged?.(res.body.favourites);
      setMessage({ error: false, text: done });
    } else {
      setMessage({ error: true, text: `Not changed. ${res.message}` });
    }
  };

  const move = (index: number, by: -1 | 1) => {
    const order = favourites.map((f) => f.href);
    const [item] = order.splice(index, 1);
    order.splice(index + by, 0, item!);
    const label = favourites[index]!.label;
    void send({ op: "order", hrefs: order }, `Moved “${label}” ${by < 0 ? "up" : "down"}.`);
  };

  return (
    <>
      <ol className={styles.favourites} data-testid="favourites-list">
        {favourites.map((f, i) => (
          <li key={f.href}>
            <a href={f.href}>{f.label}</a>
            {csrf ? (
              <span className={styles.favouriteControls}>
                <button type="button" onClick={() => move(i, -1)} disabled={busy || i === 0} aria-label={`Move ${f.label} up`}>
                  ↑
                </button>
                <button type="button" onClick={() => move(i, 1)} disabled={busy || i === favourites.length - 1} aria-label={`Move ${f.label} down`}>
                  ↓
                </button>
                <button type="button" onClick={() => void send({ op: "remove", href: f.href }, `Unstarred “${f.label}”.`)} disabled={busy} aria-label={`Unstar ${f.label}`}>
                  Unstar
                </button>
              </span>
            ) : null}
          </li>
        ))}
      </ol>
      <p role="status" className={message?.error ? "error-text" : "muted"}>
        {message?.text ?? ""}
      </p>
    </>
  );
}

"use client";

// The only way our pages send a human action (save, star, home). The CSRF token rides in a
// header; `referrerPolicy: "same-origin"` makes the browser send our Origin, which the pages'
// own no-referrer policy would otherwise turn into "null".

type ActionResult<T> = { ok: true; status: number; body: T } | { ok: false; status: number; message: string };

export async function humanPost<T>(url: string, csrf: string, body: string, contentType: string, extra: Record<string, string> = {}): Promise<ActionResult<T>> {
  try {
    const res = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      referrerPolicy: "same-origin",
      cache: "no-store",
      headers: { "content-type": contentType, "x-csrf-token": csrf, ...extra },
      body,
    });
    const parsed = (await res.json().catch(() => null)) as (T & { error?: string; hint?: string }) | null;
    if (res.ok && parsed) return { ok: true, status: res.status, body: parsed };
    const message =
      res.status === 401
        ? "You are signed out. Sign in again, then retry."
        : (parsed?.hint ?? parsed?.error ?? `The server answered ${res.status}.`);
    return { ok: false, status: res.status, message };
  } catch {
    return { ok: false, status: 0, message: "The server could not be reached. Check your connection and try again." };
  }
}

export function postJson<T>(url: string, csrf: string, value: unknown): Promise<ActionResult<T>> {
  return humanPost<T>(url, csrf, JSON.stringify(value), "application/json");
}

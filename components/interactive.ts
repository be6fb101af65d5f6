"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in server-rendered markup and until hydration, true after. A control that needs its
 * handler is disabled until then: a click on server markup before hydration would do nothing,
 * and a person would take the page for broken.
 */
export function useInteractive(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}

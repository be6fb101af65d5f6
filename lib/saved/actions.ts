import "server-only";
import { z } from "zod";
import { SNAPSHOT_DAYS_DEFAULT, SNAPSHOT_DAYS_MAX, SNAPSHOT_VISIBILITIES } from "@/lib/contract/snapshots";
import { safeNextPath } from "@/lib/http/origin";

// The bodies of a person's own actions on favourites and home; the routes parse with these and
// the reference documents them, so the two cannot differ.

const href = z
  .string()
  .min(1)
  .max(2048)
  .refine((h) => safeNextPath(h) === h, "must be a path on this site, starting with a single /")
  .meta({ description: "A path on this site, e.g. /~/<handle>/<slug>" });
const label = z.string().trim().min(1).max(200).meta({ description: "What the start page shows for it" });

export const favouriteAction = z
  .discriminatedUnion("op", [
    z.object({ op: z.literal("add"), href, label }).meta({ description: "Star a page (starring it again renames it)" }),
    z.object({ op: z.literal("remove"), href }).meta({ description: "Unstar a page" }),
    z
      .object({ op: z.literal("order"), hrefs: z.array(href).max(500).meta({ description: "Every current favourite, once each, in the new order" }) })
      .meta({ description: "Reorder" }),
  ])
  .meta({ id: "FavouriteAction" });

export const homeAction = z
  .object({
    // Only pages in spaces: "/" itself would send the person round in a circle.
    path: href
      .refine((p) => p.startsWith("/~/"), "must be a page in a space (/~/…)")
      .nullable()
      .meta({ description: "A page in a space (/~/…) that / opens, or null for the start page" }),
  })
  .meta({ id: "HomeAction" });

export const trustAction = z
  .object({
    op: z.enum(["add", "remove"]).meta({ description: "`add`: always run this author's dashboards on your data; `remove`: ask again" }),
    handle: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[^/\\\s\u0000-\u001f\u007f]+$/, "must be a space's handle, as in /~/<handle>")
      .meta({ description: "The author's handle, as in /~/<handle>" }),
  })
  .meta({ id: "TrustAction" });

const snapshotId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{32,128}$/, "must be a snapshot's token, as in /snapshots/<token>")
  .meta({ description: "The snapshot's token, as in /snapshots/<token>" });
const visibility = z
  .enum(SNAPSHOT_VISIBILITIES)
  .meta({ description: "`private`: you alone; `signed_in`: anyone signed in to this site; `link`: anyone holding the address, signed in or not" });

export const snapshotAction = z
  .discriminatedUnion("op", [
    z
      .object({
        op: z.literal("create"),
        path: href
          .refine((p) => /^\/~\/[^/]+\/[^/]+$/.test(p), "must be a saved dashboard's address, /~/<handle>/<slug>")
          .meta({ description: "Your saved dashboard, /~/<handle>/<slug>" }),
        revision: z.number().int().min(1).optional().meta({ description: "A revision of it; the latest when left out" }),
        viewport: z.enum(["desktop", "phone"]).default("desktop").meta({ description: "Drawn at a desktop's or a phone's width" }),
        visibility: visibility.default("private"),
        expiresInDays: z
          .number()
          .int()
          .min(1)
          .max(SNAPSHOT_DAYS_MAX)
          .default(SNAPSHOT_DAYS_DEFAULT)
          .meta({ description: `Days until it expires: 1 to ${SNAPSHOT_DAYS_MAX}, ${SNAPSHOT_DAYS_DEFAULT} when left out` }),
      })
      .meta({ description: "Freeze one of your saved dashboards, drawn on your data now" }),
    z.object({ op: z.literal("share"), id: snapshotId, visibility }).meta({ description: "Change who may open it" }),
    z.object({ op: z.literal("revoke"), id: snapshotId }).meta({ description: "Revoke it: what it showed is deleted and its address answers 410" }),
  ])
  .meta({ id: "SnapshotAction" });

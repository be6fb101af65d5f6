"use client";

import useSWR from "swr";
import { z } from "zod";
import { FavouritesList } from "@/components/saved/FavouritesList";
import { favourite } from "@/lib/contract/resources";
import { getJson } from "./fetch-json";
import { Empty, Failure, Loading } from "./states";
import styles from "./landing.module.css";

// The success shape of GET /me/favourites (lib/contract/endpoints.ts), typed for this component.
const favouritesSchema = z.object({ favourites: z.array(favourite) });

/** `csrf` lets the person reorder and unstar here. */
export function Favourites({ csrf }: { csrf?: string }) {
  const { data, error, isValidating, mutate } = useSWR("/api/me/favourites", (url: string) => getJson(url, favouritesSchema), {
    shouldRetryOnError: false,
  });

  return (
    <section className={`card ${styles.section}`} aria-labelledby="favourites-title" data-testid="favourites">
      <h2 id="favourites-title">Favourites</h2>
      {error ? (
        <Failure error={error} what="your favourites" onRetry={() => void mutate()} retrying={isValidating} />
      ) : !data ? (
        <Loading>Loading your favourites…</Loading>
      ) : data.favourites.length === 0 ? (
        <Empty>
          <p>No favourites yet.</p>
          <p className="muted">Open one of your saved dashboards and star it; starred dashboards are listed here.</p>
        </Empty>
      ) : (
        <FavouritesList
          favourites={data.favourites}
          csrf={csrf}
          onChanged={(favourites) => void mutate({ favourites }, { revalidate: false })}
        />
      )}
    </section>
  );
}

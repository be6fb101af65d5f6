// /connections/<slug>/{connect,callback,disconnect,opt-in,donor/connect,donor/disconnect}
import { connectionAction } from "@/lib/connectors/routes";
import { defineRoute, oneParam } from "@/lib/http/edge";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  params: (raw) => ({ slug: oneParam(raw, "slug"), action: [raw.action ?? []].flat().join("/") }),
  refuse: "The vendor returns to …/callback with GET; the buttons on /connections POST the rest.",
  methods: (on) => {
    const handle = on({ handle: ({ request, params }) => connectionAction(request, params.slug, params.action) });
    return { GET: handle, POST: handle };
  },
});

import { statusListRoute } from "@/lib/public/vc/status-list-route";

/** Public: a live BitstringStatusListCredential (issuer did:web:<host>), built from the live records' statuses now. */
export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = statusListRoute("live");

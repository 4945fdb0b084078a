import { statusListRoute } from "@/lib/public/vc/status-list-route";

/**
 * Public: a sandbox BitstringStatusListCredential, issued by did:web:<host>:sandbox with a
 * sandbox key, built from the sandbox records' statuses now (the lists sandbox credentials name).
 */
export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = statusListRoute("sandbox");

import { getEnv } from "@/lib/env";

export function recordUrls(id: string) {
  const base = getEnv().publicBaseUrl;
  return {
    certificate_url: `${base}/r/${id}`,
    qr_url: `${base}/r/${id}/qr`,
    signature_url: `${base}/api/v1/records/${id}/signature`,
    status_url: `${base}/api/v1/records/${id}/status`,
  };
}

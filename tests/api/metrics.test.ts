import { describe, expect, inject, it } from "vitest";
import { baseUrl, call, companyStatus, newAccount } from "../helpers";

/** GET /api/metrics: Prometheus text for the holder of METRICS_TOKEN only. */
const token = inject("serverEnv").METRICS_TOKEN!;
const scrape = (auth?: string) => fetch(`${baseUrl()}/api/metrics`, { headers: auth ? { Authorization: auth } : {} });

describe("metrics", () => {
  it("refuses a missing or wrong token", async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape("Bearer not-the-token-at-all")).status).toBe(401);
    expect((await scrape(`Basic ${token}`)).status).toBe(401);
  });

  it("counts requests by route template with latency, and reports the outbox, webhooks and review queue", async () => {
    const { sandboxKey } = await newAccount("metrics");
    const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: companyStatus() });
    await call("GET", `/api/v1/records/${r.body.verification_id}/status`);
    const res = await scrape(`Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/prs_http_requests_total\{route="\/api\/v1\/records\/\{id\}\/status",method="GET",status="200"\} [1-9]/);
    expect(text).toMatch(/prs_http_requests_total\{route="\/api\/v1\/records",method="POST",status="201"\} [1-9]/);
    expect(text).toMatch(/prs_http_request_duration_seconds_bucket\{le="0\.5",route="\/api\/v1\/records",method="POST"\} [1-9]/);
    expect(text).not.toContain(r.body.verification_id); // ids never become labels
    for (const name of ["prs_outbox_undispatched", "prs_outbox_tasks_pending", "prs_webhook_deliveries_failed", "prs_review_queue_size", "prs_review_queue_oldest_age_seconds"]) {
      expect(text).toMatch(new RegExp(`^${name} \\d+(\\.\\d+)?$`, "m"));
    }
  });
});

import { describe, expect, it } from "vitest";
import { routeOf } from "./metrics";

describe("routeOf", () => {
  it("turns ids into placeholders so labels stay few", () => {
    expect(routeOf("/api/v1/records/PRS-0123456789ABCDEFGHJK/status")).toBe("/api/v1/records/{id}/status");
    expect(routeOf("/api/v1/webhooks/wh_abc123/deliveries")).toBe("/api/v1/webhooks/{id}/deliveries");
    expect(routeOf("/keys/my-key-1")).toBe("/keys/{key_id}");
    expect(routeOf("/keys/acct_abc/my-key-1")).toBe("/keys/{account_id}/{key_id}");
    expect(routeOf("/api/v1/mandate-keys/any")).toBe("/api/v1/mandate-keys/{key_id}");
    expect(routeOf("/api/v1/lookup")).toBe("/api/v1/lookup");
    expect(routeOf(`/api/v1/${"x".repeat(100)}`)).toBe("/api/v1/{long}");
  });
});

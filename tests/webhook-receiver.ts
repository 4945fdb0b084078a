import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/**
 * One verified arrival. `duplicate`: an earlier arrival had the same `webhook-id` (the
 * receiver de-duplicates on it, as customers are told to). `acked`: the receiver's 2xx
 * answer was written to the sender's connection — false while held, and for good when the
 * sender went away before it could be answered.
 */
export type Received = {
  id: string; type: string; body: any; raw: string; at: number; headers: http.IncomingHttpHeaders; duplicate: boolean; acked: boolean;
};
export type Behaviour = {
  failTimes?: number; status?: number; hang?: boolean; redirectTo?: string;
  /** Verify and record the delivery, then keep the request open without answering; `onHold` runs at once. */
  hold?: boolean; onHold?: (r: Received) => void;
  /** Answer 200 at once, then trickle the body a byte every 100 ms and never finish (a slow-drip receiver). */
  trickle?: boolean;
};

/**
 * A real HTTP endpoint on loopback for webhook tests. Each path is its own endpoint with
 * its own secret and behaviour. Every delivery is checked with the standardwebhooks
 * verifier (independent of the service): a delivery that does not verify — wrong secret,
 * forged or stale signature, missing headers — is answered 400 and not recorded. Verified
 * arrivals are all kept, duplicates included, so tests can count them.
 */
export async function startReceiver() {
  const endpoints = new Map<string, { secret?: string; behaviour: Behaviour; received: Received[]; hits: number; rejected: number; closedAt: number[] }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const ep = endpoints.get(req.url ?? "");
      if (!ep) return res.writeHead(404).end();
      ep.hits++;
      const b = ep.behaviour;
      if (b.hang) return; // never answer
      if (b.trickle) {
        res.writeHead(200, { "content-type": "text/plain" });
        const drip = setInterval(() => res.write("."), 100);
        res.on("close", () => {
          clearInterval(drip);
          ep.closedAt.push(Date.now());
        });
        return;
      }
      if (b.redirectTo) return res.writeHead(302, { Location: b.redirectTo }).end();
      if (b.failTimes && b.failTimes > 0) {
        b.failTimes--;
        return res.writeHead(500).end("temporary failure");
      }
      if (b.status && (b.status < 200 || b.status > 299)) return res.writeHead(b.status).end();
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: any;
      try {
        if (!ep.secret) throw new Error("no secret set for this endpoint");
        body = new Webhook(ep.secret).verify(raw, req.headers as Record<string, string>);
      } catch {
        ep.rejected++;
        return res.writeHead(400, { "content-type": "application/json" }).end('{"error":"signature verification failed"}');
      }
      const id = String(req.headers["webhook-id"]);
      const r: Received = {
        id, type: body?.type, body, raw, at: Date.now(), headers: req.headers, duplicate: ep.received.some((x) => x.id === id), acked: false,
      };
      ep.received.push(r);
      if (b.hold) return b.onHold?.(r);
      res.on("finish", () => (r.acked = true));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const receiver = {
    base,
    /** A new endpoint path; set its secret once the webhook is registered. */
    endpoint(name: string, behaviour: Behaviour = {}) {
      const pathName = `/hook/${name}`;
      const ep = { behaviour, received: [] as Received[], hits: 0, rejected: 0, closedAt: [] as number[], secret: undefined as string | undefined };
      endpoints.set(pathName, ep);
      return {
        url: `${base}${pathName}`,
        setSecret: (s: string) => (ep.secret = s),
        /** The secret deliveries are verified with now. */
        secret: () => ep.secret,
        behave: (b: Behaviour) => (ep.behaviour = b),
        /** Every verified arrival, duplicates included. */
        received: () => ep.received,
        /** What a de-duplicating consumer processes: the first arrival of each webhook-id. */
        processed: () => ep.received.filter((r) => !r.duplicate),
        hits: () => ep.hits,
        /** Deliveries refused because they did not verify. */
        rejected: () => ep.rejected,
        /** When each trickled answer's connection was closed (by the sender). */
        closedAt: () => ep.closedAt,
      };
    },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
  return receiver;
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export async function waitFor<T>(fn: () => T | undefined | false, timeoutMs = 8000, stepMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

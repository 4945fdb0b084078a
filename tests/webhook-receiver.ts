import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Received = { id: string; type: string; body: any; at: number; verified: boolean; headers: http.IncomingHttpHeaders };
type Behaviour = { failTimes?: number; status?: number; hang?: boolean; redirectTo?: string };

/**
 * A real HTTP endpoint on loopback for webhook tests. Each path is its own endpoint with
 * its own secret and behaviour; every delivery is checked with the standardwebhooks
 * verifier (independent of the service) and kept, so tests can count duplicates.
 */
export async function startReceiver() {
  const endpoints = new Map<string, { secret?: string; behaviour: Behaviour; received: Received[]; hits: number }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const ep = endpoints.get(req.url ?? "");
      if (!ep) return res.writeHead(404).end();
      ep.hits++;
      const b = ep.behaviour;
      if (b.hang) return; // never answer
      if (b.redirectTo) return res.writeHead(302, { Location: b.redirectTo }).end();
      if (b.failTimes && b.failTimes > 0) {
        b.failTimes--;
        return res.writeHead(500).end("temporary failure");
      }
      if (b.status && (b.status < 200 || b.status > 299)) return res.writeHead(b.status).end();
      const raw = Buffer.concat(chunks).toString("utf8");
      let verified = false;
      let body: any;
      try {
        body = new Webhook(ep.secret!).verify(raw, req.headers as Record<string, string>);
        verified = true;
      } catch {
        body = JSON.parse(raw);
      }
      ep.received.push({ id: String(req.headers["webhook-id"]), type: body?.type, body, at: Date.now(), verified, headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    /** A new endpoint path; set its secret once the webhook is registered. */
    endpoint(name: string, behaviour: Behaviour = {}) {
      const pathName = `/hook/${name}`;
      const ep = { behaviour, received: [] as Received[], hits: 0, secret: undefined as string | undefined };
      endpoints.set(pathName, ep);
      return {
        url: `${base}${pathName}`,
        setSecret: (s: string) => (ep.secret = s),
        behave: (b: Behaviour) => (ep.behaviour = b),
        received: () => ep.received,
        hits: () => ep.hits,
      };
    },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

export async function waitFor<T>(fn: () => T | undefined | false, timeoutMs = 8000, stepMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

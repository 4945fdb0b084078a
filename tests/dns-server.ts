import fs from "node:fs";
// dns2 is CommonJS.
import dns2 from "dns2";

const { Packet } = dns2;

/**
 * TXT values; or "drop" / "servfail"; or addresses: `a` / `aaaa` are the answers to the 1st,
 * 2nd, … A (AAAA) question for the name, the last one repeated from then on (TTL 0) — a
 * rebinding name is `{ a: [["93.184.215.14"], ["127.0.0.1"]] }`.
 */
export type DnsEntry = string[] | "drop" | "servfail" | { a?: string[][]; aaaa?: string[][] };

/** Set (or with null, remove) one name in the zone file, atomically. */
export function setDnsEntry(zoneFile: string, name: string, entry: DnsEntry | null) {
  const zone = JSON.parse(fs.readFileSync(zoneFile, "utf8"));
  if (entry === null) delete zone[name.toLowerCase()];
  else zone[name.toLowerCase()] = entry;
  const tmp = `${zoneFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(zone));
  fs.renameSync(tmp, zoneFile);
}

/** Where the server started on `zoneFile` notes each question it receives, one name per line. */
const queryLog = (zoneFile: string) => `${zoneFile}.queries`;

/**
 * How many questions for `name` the server has received so far (answered or not): TXT ones,
 * or with `type` ("A", "AAAA") the address questions of that type.
 */
export function dnsQueryCount(zoneFile: string, name: string, type?: "A" | "AAAA"): number {
  if (!fs.existsSync(queryLog(zoneFile))) return 0;
  const want = type ? `${name.toLowerCase()} ${type}` : name.toLowerCase();
  return fs.readFileSync(queryLog(zoneFile), "utf8").split("\n").filter((l) => l === want).length;
}

/**
 * A real DNS server on loopback for the tests. It answers TXT queries from a JSON zone
 * file the tests edit: `{ "<name>": ["value", …] | "drop" | "servfail" | { a, aaaa } }`. Unknown
 * names are NXDOMAIN; "drop" never answers (a dead resolver); "servfail" answers SERVFAIL;
 * an address entry answers A and AAAA questions in turn (DnsEntry). Every question is logged
 * (see dnsQueryCount), so a test can tell a look-up happened.
 */
export async function startDnsServer(zoneFile: string): Promise<{ port: number; close: () => Promise<void> }> {
  fs.writeFileSync(zoneFile, "{}");
  fs.writeFileSync(queryLog(zoneFile), "");
  /** A and AAAA questions answered so far, per name and type: which answer of a sequence is next. */
  const asked = new Map<string, number>();
  const server = (dns2 as any).createServer({
    udp: true,
    handle: (request: any, send: (r: any) => void) => {
      const response = Packet.createResponseFromRequest(request);
      const [q] = request.questions;
      const name = String(q.name).toLowerCase();
      const type = q.type === Packet.TYPE.A ? "A" : q.type === Packet.TYPE.AAAA ? "AAAA" : null;
      fs.appendFileSync(queryLog(zoneFile), type ? `${name} ${type}\n` : `${name}\n`);
      const zone = JSON.parse(fs.readFileSync(zoneFile, "utf8")) as Record<string, DnsEntry>;
      const entry = zone[name];
      if (entry === "drop") return;
      if (entry && !Array.isArray(entry) && typeof entry === "object") {
        // Addresses: the next answer of the sequence for this type (none for TXT and other types).
        const seq = type === "A" ? entry.a : type === "AAAA" ? entry.aaaa : undefined;
        if (type && seq && seq.length > 0) {
          const n = asked.get(`${name} ${type}`) ?? 0;
          asked.set(`${name} ${type}`, n + 1);
          for (const address of seq[Math.min(n, seq.length - 1)]!) {
            response.answers.push({ name: q.name, type: q.type, class: Packet.CLASS.IN, ttl: 0, address });
          }
        }
        return send(response);
      }
      if (entry === "servfail") {
        response.header.rcode = 2;
      } else if (!entry) {
        response.header.rcode = 3; // NXDOMAIN
      } else if (q.type === Packet.TYPE.TXT) {
        for (const value of entry) {
          response.answers.push({ name: q.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data: value });
        }
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: "127.0.0.1", type: "udp4" } });
  const port = server.addresses().udp.port as number;
  return { port, close: () => server.close() };
}

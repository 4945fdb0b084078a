import fs from "node:fs";
// dns2 is CommonJS.
import dns2 from "dns2";

const { Packet } = dns2;

export type DnsEntry = string[] | "drop" | "servfail";

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

/** How many questions for `name` the server has received so far (answered or not). */
export function dnsQueryCount(zoneFile: string, name: string): number {
  if (!fs.existsSync(queryLog(zoneFile))) return 0;
  const want = name.toLowerCase();
  return fs.readFileSync(queryLog(zoneFile), "utf8").split("\n").filter((l) => l === want).length;
}

/**
 * A real DNS server on loopback for the tests. It answers TXT queries from a JSON zone
 * file the tests edit: `{ "<name>": ["value", …] | "drop" | "servfail" }`. Unknown
 * names are NXDOMAIN; "drop" never answers (a dead resolver); "servfail" answers SERVFAIL.
 * Every question is logged (see dnsQueryCount), so a test can tell a look-up happened.
 */
export async function startDnsServer(zoneFile: string): Promise<{ port: number; close: () => Promise<void> }> {
  fs.writeFileSync(zoneFile, "{}");
  fs.writeFileSync(queryLog(zoneFile), "");
  const server = (dns2 as any).createServer({
    udp: true,
    handle: (request: any, send: (r: any) => void) => {
      const response = Packet.createResponseFromRequest(request);
      const [q] = request.questions;
      fs.appendFileSync(queryLog(zoneFile), `${String(q.name).toLowerCase()}\n`);
      const zone = JSON.parse(fs.readFileSync(zoneFile, "utf8")) as Record<string, DnsEntry>;
      const entry = zone[String(q.name).toLowerCase()];
      if (entry === "drop") return;
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

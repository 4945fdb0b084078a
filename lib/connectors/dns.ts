import { promises as dns } from "node:dns";
import { getEnv } from "@/lib/env";
import { found, notFound, unreachable, type SourceResult } from "./source-result";

const NOT_FOUND = new Set<string>([dns.NOTFOUND, dns.NODATA]);

/**
 * TXT lookup (the values, chunks joined) through the configured resolvers (`DNS_SERVERS`, else the system's). A
 * definite "no such record" is `not_found`; anything that leaves the answer unknown
 * (timeout, refusal, SERVFAIL) is `unreachable`, which the pipeline turns into review.
 */
export async function resolveTxt(name: string): Promise<SourceResult<string[]>> {
  const env = getEnv();
  const resolver = new dns.Resolver({ timeout: env.DNS_TIMEOUT_MS, tries: 2 });
  if (env.DNS_SERVERS) resolver.setServers(env.DNS_SERVERS.split(",").map((s) => s.trim()).filter(Boolean));
  try {
    const records = await resolver.resolveTxt(name);
    return found(records.map((chunks) => chunks.join("")));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "UNKNOWN";
    if (NOT_FOUND.has(code)) return notFound(`DNS has no TXT record at ${name}.`);
    return unreachable(`DNS resolver did not answer (${code}).`);
  }
}

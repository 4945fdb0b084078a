import { parseArgs } from "node:util";
import { PrsClient, PrsError } from "../../sdk/src/index.js";
import { DEFAULT_BASE_URL, loadConfig, saveConfig, type Config } from "./config.js";
import { listen, newLocalSecret } from "./listen.js";

const USAGE = `prs — the Proof Records command line

  prs login --api-key KEY [--base-url URL]      keep a key (and the service's address) for the commands below
  prs listen --forward-to URL [--secret whsec_…] [--interval-ms 1000]
                                                forward each new event, signed, to a local endpoint
  prs events [--type T] [--record ID] [--limit N]
  prs replay EVENT_ID --webhook WEBHOOK_ID      send one event again to one of your endpoints
  prs records create --subject S --claim C [--claim-type company_status] [--visibility public|private]
  prs records get ID | prs records status ID
  prs trigger record.issued                     issue a sandbox record, so its event is raised

Every command prints JSON (one object, or one per line), except listen's log lines.
PRS_API_KEY and PRS_BASE_URL override what login kept.`;

type Out = { out: (line: string) => void; err: (line: string) => void };
const console_: Out = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };

/** Runs one command; resolves to the exit code (0 ok, 1 refused or failed, 2 usage). */
export async function main(argv: string[], io: Out = console_, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "login": return await login(rest, io, env);
      case "listen": return await listenCommand(rest, io, env);
      case "events": return await events(rest, io, env);
      case "replay": return await replay(rest, io, env);
      case "records": return await records(rest, io, env);
      case "trigger": return await trigger(rest, io, env);
      case undefined: case "help": case "--help": case "-h":
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        io.err(`unknown command '${command}'\n\n${USAGE}`);
        return 2;
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`${e.message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof PrsError) {
      io.err(JSON.stringify({ error: { status: e.status, code: e.code, message: e.message, request_id: e.request_id } }));
      return 1;
    }
    io.err(`prs: ${(e as Error).message}`);
    return 1;
  }
}

class UsageError extends Error {}

function options<T extends Record<string, { type: "string" | "boolean" }>>(args: string[], spec: T) {
  try {
    return parseArgs({ args, options: spec, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function client(env: NodeJS.ProcessEnv): { prs: PrsClient; config: Config } {
  const config = loadConfig(env);
  if (!config) throw new UsageError("Not logged in: run 'prs login --api-key KEY' (or set PRS_API_KEY).");
  return { prs: new PrsClient({ baseUrl: config.base_url, apiKey: config.api_key }), config };
}

async function login(args: string[], io: Out, env: NodeJS.ProcessEnv) {
  const { values } = options(args, { "api-key": { type: "string" }, "base-url": { type: "string" } });
  const apiKey = values["api-key"] ?? env.PRS_API_KEY;
  if (!apiKey) throw new UsageError("login needs --api-key KEY");
  if (!/^prs_(sandbox|live)_[0-9A-Za-z]{32}$/.test(apiKey)) throw new UsageError("that is not a Proof Records API key (prs_sandbox_… or prs_live_…)");
  const baseUrl = (values["base-url"] ?? env.PRS_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  // The key must work before it is kept: the events list answers any valid key with the webhooks scope,
  // and a restricted key without it is still a valid key (403 insufficient_scope, not 401).
  const prs = new PrsClient({ baseUrl, apiKey });
  try {
    await prs.events.list({ limit: 1 });
  } catch (e) {
    if (!(e instanceof PrsError && e.code === "insufficient_scope")) throw e;
  }
  const file = saveConfig({ api_key: apiKey, base_url: baseUrl }, env);
  io.out(JSON.stringify({ logged_in: true, environment: apiKey.startsWith("prs_live_") ? "live" : "sandbox", base_url: baseUrl, config: file }));
  return 0;
}

async function listenCommand(args: string[], io: Out, env: NodeJS.ProcessEnv) {
  const { values } = options(args, { "forward-to": { type: "string" }, secret: { type: "string" }, "interval-ms": { type: "string" } });
  const forwardTo = values["forward-to"];
  if (!forwardTo || !/^https?:\/\//.test(forwardTo)) throw new UsageError("listen needs --forward-to http(s)://…");
  const secret = values.secret ?? newLocalSecret();
  if (!/^whsec_[A-Za-z0-9+/=]{20,}$/.test(secret)) throw new UsageError("--secret must be a whsec_… secret");
  const intervalMs = Number(values["interval-ms"] ?? 1000);
  if (!Number.isInteger(intervalMs) || intervalMs < 100 || intervalMs > 60_000) throw new UsageError("--interval-ms must be 100-60000");
  const { prs } = client(env);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    await listen(prs, { forwardTo, secret, intervalMs, signal: stop.signal, out: io.out });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  return 0;
}

async function events(args: string[], io: Out, env: NodeJS.ProcessEnv) {
  const { values } = options(args, { type: { type: "string" }, record: { type: "string" }, limit: { type: "string" } });
  const { prs } = client(env);
  const page = await prs.events.list({
    ...(values.type ? { type: values.type } : {}), ...(values.record ? { record_id: values.record } : {}),
    ...(values.limit ? { limit: Number(values.limit) } : {}),
  });
  for (const e of page.data) io.out(JSON.stringify(e));
  return 0;
}

async function replay(args: string[], io: Out, env: NodeJS.ProcessEnv) {
  const { values, positionals } = options(args, { webhook: { type: "string" } });
  const [eventId] = positionals;
  if (!eventId || !values.webhook) throw new UsageError("replay needs EVENT_ID and --webhook WEBHOOK_ID");
  const { prs } = client(env);
  io.out(JSON.stringify(await prs.webhooks.replay(values.webhook, { event_id: eventId })));
  return 0;
}

async function records(args: string[], io: Out, env: NodeJS.ProcessEnv) {
  const [sub, ...rest] = args;
  const { values, positionals } = options(rest, {
    subject: { type: "string" }, claim: { type: "string" }, "claim-type": { type: "string" }, visibility: { type: "string" },
  });
  const { prs } = client(env);
  if (sub === "create") {
    if (!values.subject || !values.claim) throw new UsageError("records create needs --subject and --claim");
    const visibility = values.visibility ?? "public";
    if (visibility !== "public" && visibility !== "private") throw new UsageError("--visibility is public or private");
    io.out(JSON.stringify(await prs.records.create({ subject: values.subject, claim: values.claim, claim_type: values["claim-type"] ?? "company_status", visibility })));
    return 0;
  }
  const [id] = positionals;
  if ((sub === "get" || sub === "status") && id) {
    io.out(JSON.stringify(sub === "get" ? await prs.records.get(id) : await prs.records.status(id)));
    return 0;
  }
  throw new UsageError("records create|get ID|status ID");
}

async function trigger(args: string[], io: Out, env: NodeJS.ProcessEnv) {
  const [type] = args;
  if (type !== "record.issued") throw new UsageError("trigger knows record.issued");
  const { prs, config } = client(env);
  // Only with a sandbox key: a test event must never be a live statement about anyone.
  if (!config.api_key.startsWith("prs_sandbox_")) throw new UsageError("trigger needs a sandbox key: it issues a test record");
  const record = await prs.records.create({
    subject: "Trigger Test Ltd", claim_type: "company_status", claim: "Trigger Test Ltd is a record made by prs trigger.", visibility: "private",
  });
  io.out(JSON.stringify({ triggered: "record.issued", verification_id: record.verification_id }));
  return 0;
}

// Run as a script (tsx packages/cli/src/main.ts …); bin/prs.js imports main() from the build.
if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));

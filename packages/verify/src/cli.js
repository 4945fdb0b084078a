// prs-verify: check Proof Records' signatures and transparency log without trusting the
// service. Exit 0 verified, 1 verification failed, 2 usage or input error.
import { parseArgs } from "node:util";
import { answer, consistency, inclusion, record } from "./commands.js";
import { loadWitnessPolicy } from "./inputs.js";
import { InputError } from "./io.js";
import { monitorOnce } from "./monitor.js";

export const HELP = `prs-verify — check Proof Records answers and its transparency log offline

Usage:
  prs-verify record <record.json|URL> [--jwks <file|URL>] [--payload <file>] [--offline]
  prs-verify status <answer.json|URL> [--jwks <file|URL>] [--log-key <vkey|file|URL>] [--id PRS-…] [--witness <vkey> … [--quorum N]]
  prs-verify lookup <answer.json|URL> [--jwks <file|URL>]
  prs-verify check  <answer.json|URL> [--jwks <file|URL>]
  prs-verify inclusion --checkpoint <file|URL> --log-key <…> (--leaf <file> | --leaf-hash <hex>) --index N --proof <hex,hex…> [--witness …]
  prs-verify inclusion --from <record log answer file|URL> --log-key <…> [--witness <vkey> … [--quorum N]]
  prs-verify consistency --old <checkpoint file> (--new <file|URL> | --log <base URL>) --log-key <…> [--proof <hex,hex…>] [--witness …]
  prs-verify monitor --log <base URL> --log-key <…> --state <file> [--once | --interval <s>] [--grace <s>] [--jwks <file|URL>] [--witness …]

  --jwks      the service's /.well-known/jwks.json (a file or URL). For an answer given as
              a URL it defaults to that service's JWKS.
  --log-key   the log's verifier key, "<name>+<hash>+<key>", inline, in a file, or a URL
              (<base>/log/key). Pin it: it is what makes a checkpoint trustworthy.
  --witness   a witness's verifier key (C2SP vkey of type 0x04: "<name>+<id>+<key>", inline,
              in a file, or a URL); repeat it for each witness you trust. With it, a
              checkpoint (status, inclusion, consistency, monitor) must carry valid
              cosignatures of at least --quorum of them, or the check fails.
  --quorum    how many of the --witness keys must have cosigned (default: all of them).
  --json      print one JSON object instead of text.
  --help      this text.

Exit status: 0 verified, 1 a check failed (each failure is printed), 2 usage or input error.`;

const OPTIONS = /** @type {const} */ ({
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  jwks: { type: "string" },
  payload: { type: "string" },
  offline: { type: "boolean" },
  id: { type: "string" },
  "log-key": { type: "string" },
  checkpoint: { type: "string" },
  leaf: { type: "string" },
  "leaf-hash": { type: "string" },
  index: { type: "string" },
  proof: { type: "string" },
  from: { type: "string" },
  old: { type: "string" },
  new: { type: "string" },
  log: { type: "string" },
  state: { type: "string" },
  once: { type: "boolean" },
  interval: { type: "string" },
  grace: { type: "string" },
  witness: { type: "string", multiple: true },
  quorum: { type: "string" },
});

/** Which options each command takes. */
const ALLOWED = /** @type {Record<string, string[]>} */ ({
  record: ["jwks", "payload", "offline"],
  status: ["jwks", "log-key", "id", "witness", "quorum"],
  lookup: ["jwks"],
  check: ["jwks"],
  inclusion: ["checkpoint", "log-key", "leaf", "leaf-hash", "index", "proof", "from", "witness", "quorum"],
  consistency: ["old", "new", "log", "log-key", "proof", "witness", "quorum"],
  monitor: ["log", "log-key", "state", "once", "interval", "grace", "jwks", "witness", "quorum"],
});

/**
 * @param {string[]} argv @param {{ out?: (s: string) => void, err?: (s: string) => void }} [io]
 * @returns {Promise<number>} the exit status
 */
export async function main(argv, io = {}) {
  const out = io.out ?? ((s) => process.stdout.write(`${s}\n`));
  const err = io.err ?? ((s) => process.stderr.write(`${s}\n`));
  let args;
  try {
    args = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    err(`prs-verify: ${/** @type {Error} */ (e).message}\n\n${HELP}`);
    return 2;
  }
  const [command, ...positionals] = args.positionals;
  if (args.values.help || command === "help") {
    out(HELP);
    return 0;
  }
  if (!command || !(command in ALLOWED)) {
    err(`prs-verify: ${command ? `unknown command ${JSON.stringify(command)}` : "no command"}\n\n${HELP}`);
    return 2;
  }
  const extra = Object.keys(args.values).filter((k) => k !== "json" && !ALLOWED[command]?.includes(k));
  if (extra.length > 0) {
    err(`prs-verify ${command}: does not take ${extra.map((k) => `--${k}`).join(", ")}`);
    return 2;
  }
  const json = Boolean(args.values.json);
  /** @param {import("./report.js").Report} report */
  const print = (report) => out(json ? JSON.stringify(report.toJSON(), null, 2) : report.toText());
  const parsed = { positionals, values: args.values };
  try {
    if (command === "monitor") return await monitor(parsed, print, err);
    if ((command === "inclusion" || command === "consistency") && positionals.length > 0) throw new InputError(`${command} takes no positional arguments`);
    const report =
      command === "record" ? await record(parsed)
      : command === "inclusion" ? await inclusion(parsed)
      : command === "consistency" ? await consistency(parsed)
      : await answer(/** @type {"status" | "lookup" | "check"} */ (command), parsed);
    print(report);
    return report.ok ? 0 : 1;
  } catch (e) {
    // Input that cannot be read is exit 2; so is anything unforeseen (with its stack),
    // never a silent 1 that reads like a failed verification.
    const message = e instanceof InputError ? e.message : `unexpected error: ${/** @type {Error} */ (e).stack ?? e}`;
    err(json ? JSON.stringify({ command, error: message }) : `prs-verify ${command}: ${message}`);
    return 2;
  }
}

/**
 * @param {{ positionals: string[], values: Record<string, unknown> }} args
 * @param {(r: import("./report.js").Report) => void} print @param {(s: string) => void} err
 */
async function monitor(args, print, err) {
  const v = /** @type {Record<string, string | boolean | undefined>} */ (args.values);
  if (args.positionals.length > 0) throw new InputError("monitor takes no positional arguments");
  for (const name of ["log", "log-key", "state"]) if (typeof v[name] !== "string") throw new InputError(`give --${name}`);
  const seconds = (/** @type {string | undefined} */ s, /** @type {string} */ name, /** @type {number} */ dflt) => {
    if (s === undefined) return dflt;
    if (!/^[0-9]+$/.test(s) || Number(s) < 1) throw new InputError(`--${name} must be a whole number of seconds ≥ 1`);
    return Number(s);
  };
  const grace = seconds(/** @type {string | undefined} */ (v.grace), "grace", 600);
  if (v.once && v.interval !== undefined) throw new InputError("give --once or --interval, not both");
  const opts = {
    log: String(v.log), logKey: String(v["log-key"]), state: String(v.state), jwks: /** @type {string | undefined} */ (v.jwks), graceSeconds: grace,
    policy: await loadWitnessPolicy(v),
  };
  if (v.interval === undefined) {
    const report = await monitorOnce(opts);
    print(report);
    return report.ok ? 0 : 1;
  }
  const interval = seconds(/** @type {string} */ (v.interval), "interval", 60);
  for (;;) {
    // Follows until stopped; a pass that cannot read the log is reported and retried.
    try {
      print(await monitorOnce(opts));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      err(`prs-verify monitor: ${e.message}`);
    }
    await new Promise((r) => setTimeout(r, interval * 1000));
  }
}

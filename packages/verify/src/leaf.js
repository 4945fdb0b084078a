// The PRS log's leaves: RFC 8785 canonical JSON of
// {verification_id, event, status, at, payload_sha256, environment}.
import { canonicalize } from "json-canonicalize";

export const EVENTS = ["issued", "status_changed", "signing_key_published"];
export const STATUSES = ["active", "suspended", "revoked", "expired", "superseded"];
/** Statuses a record never leaves. */
export const FINAL = ["revoked", "expired", "superseded"];
const FIELDS = ["at", "environment", "event", "payload_sha256", "status", "verification_id"];

/**
 * @typedef {{ verification_id: string | null, event: string, status: string, at: string,
 *   payload_sha256: string, environment: string }} Leaf
 */

/**
 * Reads a leaf and checks its form. Throws an Error saying what is wrong.
 * @param {string} text @returns {Leaf}
 */
export function parseLeaf(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("the leaf is not JSON");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("the leaf is not a JSON object");
  if (canonicalize(value) !== text) throw new Error("the leaf is not in RFC 8785 canonical form");
  const keys = Object.keys(value).sort();
  if (keys.join() !== FIELDS.join()) throw new Error(`the leaf has fields ${keys.join(", ")}, not ${FIELDS.join(", ")}`);
  const leaf = /** @type {Leaf} */ (value);
  if (!EVENTS.includes(leaf.event)) throw new Error(`unknown event ${JSON.stringify(leaf.event)}`);
  if (leaf.event === "signing_key_published" ? leaf.verification_id !== null : typeof leaf.verification_id !== "string") {
    throw new Error(`event ${leaf.event} with verification_id ${JSON.stringify(leaf.verification_id)}`);
  }
  if (!STATUSES.includes(leaf.status)) throw new Error(`unknown status ${JSON.stringify(leaf.status)}`);
  if (typeof leaf.at !== "string" || Number.isNaN(Date.parse(leaf.at))) throw new Error(`"at" ${JSON.stringify(leaf.at)} is not a timestamp`);
  if (typeof leaf.payload_sha256 !== "string" || !/^[0-9a-f]{64}$/.test(leaf.payload_sha256)) throw new Error("payload_sha256 is not 64 lower-case hex digits");
  if (leaf.environment !== "sandbox" && leaf.environment !== "live") throw new Error(`environment ${JSON.stringify(leaf.environment)}`);
  return leaf;
}

// What a command found: a list of named checks, each passed, failed, skipped or a note.
// A command verified when no check failed. Every failure says what failed and why.

/** @typedef {"pass" | "fail" | "skip" | "note"} Result */
/** @typedef {{ check: string, result: Result, detail: string }} Check */

export class Report {
  /** @param {string} command */
  constructor(command) {
    this.command = command;
    /** @type {Check[]} */
    this.checks = [];
    /** @type {Record<string, unknown>} facts worth showing (ids, sizes, statuses) */
    this.facts = {};
  }

  /** @param {string} check @param {string} [detail] */
  pass(check, detail = "") {
    this.checks.push({ check, result: "pass", detail });
  }
  /** @param {string} check @param {string} detail */
  fail(check, detail) {
    this.checks.push({ check, result: "fail", detail });
  }
  /** @param {string} check @param {string} detail */
  skip(check, detail) {
    this.checks.push({ check, result: "skip", detail });
  }
  /** @param {string} check @param {string} detail */
  note(check, detail) {
    this.checks.push({ check, result: "note", detail });
  }
  /** @param {string} check @param {boolean} ok @param {string} passDetail @param {string} failDetail */
  expect(check, ok, passDetail, failDetail) {
    if (ok) this.pass(check, passDetail);
    else this.fail(check, failDetail);
    return ok;
  }

  get ok() {
    return this.checks.every((c) => c.result !== "fail");
  }

  toJSON() {
    return { command: this.command, verified: this.ok, ...this.facts, checks: this.checks };
  }

  toText() {
    const mark = { pass: "ok  ", fail: "FAIL", skip: "skip", note: "note" };
    const lines = this.checks.map((c) => `${mark[c.result]}  ${c.check}${c.detail ? `: ${c.detail}` : ""}`);
    const failed = this.checks.filter((c) => c.result === "fail").length;
    lines.push(this.ok ? `VERIFIED (${this.command})` : `NOT VERIFIED (${this.command}): ${failed} check${failed === 1 ? "" : "s"} failed`);
    return lines.join("\n");
  }
}

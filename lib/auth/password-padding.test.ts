import * as crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";

/**
 * Which scrypt work a check does, read from the calls themselves (the real node:crypto scrypt,
 * wrapped to note each call's N) rather than from a stopwatch: scrypt's work is linear in N, so
 * equal sums of N are equal cost, whatever else the machine is doing.
 */
const calls: number[] = [];
vi.mock("node:crypto", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:crypto")>();
  const scrypt = (...args: Parameters<typeof real.scrypt>) => {
    calls.push((args[3] as crypto.ScryptOptions).N ?? 16384);
    return (real.scrypt as (...a: unknown[]) => void)(...args);
  };
  return { ...real, default: { ...real, scrypt }, scrypt };
});

const { checkPassword, PASSWORD_COST } = await import("./password");

function hashAt(password: string, N: number): string {
  const salt = crypto.randomBytes(16);
  const hash = crypto.scryptSync(password.normalize("NFKC"), salt, 32, { N, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
  return ["scrypt", N, 8, 1, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

async function workOf(fn: () => Promise<unknown>): Promise<number[]> {
  calls.length = 0;
  await fn();
  return [...calls];
}
const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);

describe("password checks cost the same whether or not the account exists", () => {
  it("an unknown account costs one hash at today's N", async () => {
    expect(await workOf(() => checkPassword("a guess 12345", null))).toEqual([PASSWORD_COST.N]);
  });
  it("a wrong password against an older, weaker hash is padded to today's N in total", async () => {
    for (const N of [16384, 32768, 65536]) {
      const stored = hashAt("correct horse battery", N);
      const work = await workOf(() => checkPassword("a guess 12345", stored));
      expect(work[0]).toBe(N); // the check itself, at the stored cost
      expect(sum(work)).toBe(PASSWORD_COST.N);
    }
  });
  it("a wrong password against today's hash is one hash at today's N, with no padding", async () => {
    const stored = hashAt("correct horse battery", PASSWORD_COST.N);
    expect(await workOf(() => checkPassword("a guess 12345", stored))).toEqual([PASSWORD_COST.N]);
  });
});

import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A stand-in for the perpetual exchange's public info API (protocols.md §3), a real HTTP
 * server on loopback: `POST /info` with `{type, …}`. Its data is a JSON file (so a server
 * started by the tests and the tests themselves see the same), read on every request.
 * Answers as the real one does: a bare integer for maxBuilderFee, `null` for an unknown
 * vault, `{"role":"missing"}` for an unknown user, 422 text/plain for a body it cannot read.
 */
export type VaultInfoData = {
  /** `${user}|${builder}` (lower case) → approved maximum fee in tenths of a basis point. */
  builderFees?: Record<string, number>;
  /** vault address (lower case) → its vaultDetails answer. */
  vaults?: Record<string, Record<string, unknown>>;
  /** user (lower case) → its userRole answer. */
  roles?: Record<string, unknown>;
  /** Wait this long before every answer (beyond a client's timeout: an API that does not answer). */
  delayMs?: number;
  /** Answer every request with this status (and a JSON `null` body), e.g. 500, 429. */
  failStatus?: number;
};

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export function writeVaultInfo(file: string, data: VaultInfoData) {
  fs.writeFileSync(file, JSON.stringify(data));
}
const read = (file: string): VaultInfoData => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {});

/** A vaultDetails answer in the documented shape. */
export function vaultFixture(o: { vaultAddress: string; leader: string; name?: string; followers?: string[]; allowDeposits?: boolean; isClosed?: boolean }) {
  const follower = (user: string) => ({ user, vaultEquity: "100.0", pnl: "1.0", allTimePnl: "2.0", daysFollowing: 3, vaultEntryTime: 1700000000000, lockupUntil: 1700086400000 });
  return {
    name: o.name ?? "Test Vault", vaultAddress: o.vaultAddress.toLowerCase(), leader: o.leader.toLowerCase(), description: "A vault of the stand-in.",
    portfolio: [["day", { accountValueHistory: [[1700000000000, "123.4"]], pnlHistory: [[1700000000000, "-1.2"]], vlm: "0.0" }]],
    apr: 0.12, followerState: null, leaderFraction: 0.1, leaderCommission: 0.1,
    followers: [follower("Leader"), ...(o.followers ?? []).map(follower)],
    maxDistributable: 0, maxWithdrawable: 0, isClosed: o.isClosed ?? false, relationship: { type: "normal" },
    allowDeposits: o.allowDeposits ?? true, alwaysCloseOnWithdraw: false,
  };
}

export type VaultInfoRequest = { type: string; body: Record<string, unknown> };

export async function startVaultInfo(file: string) {
  const requests: VaultInfoRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const data = read(file);
      const refuse = (why: string) => {
        res.writeHead(422, { "content-type": "text/plain; charset=utf-8" });
        res.end(`Failed to deserialize the JSON body into the target type: ${why}`);
      };
      const answer = (body: unknown) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      // time under test: `delayMs` plays an API that answers late, for the service's timeout (0 by default).
      setTimeout(() => {
        if (req.method !== "POST" || new URL(req.url ?? "/", "http://x").pathname !== "/info") return void res.writeHead(404).end();
        if (data.failStatus) {
          res.writeHead(data.failStatus, { "content-type": "application/json" });
          return void res.end("null");
        }
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          return refuse("expected value at line 1 column 1");
        }
        requests.push({ type: String(body?.type), body });
        const addr = (k: string) => (typeof body[k] === "string" && ADDRESS.test(body[k] as string) ? (body[k] as string).toLowerCase() : null);
        switch (body?.type) {
          case "maxBuilderFee": {
            const user = addr("user"), builder = addr("builder");
            if (!user || !builder) return refuse("user/builder: invalid address");
            return answer(data.builderFees?.[`${user}|${builder}`] ?? 0);
          }
          case "vaultDetails": {
            const vault = addr("vaultAddress");
            if (!vault) return refuse("vaultAddress: invalid address");
            return answer(data.vaults?.[vault] ?? null);
          }
          case "userRole": {
            const user = addr("user");
            if (!user) return refuse("user: invalid address");
            return answer(data.roles?.[user] ?? { role: "missing" });
          }
          default:
            return refuse(`unknown variant \`${String(body?.type).slice(0, 40)}\``);
        }
      }, data.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/info`,
    requests,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

import fs from "node:fs";
import path from "node:path";

/**
 * Operator commands through a running server's admin endpoint, as `npm run admin` does:
 * the token is in the server's runtime file in its data folder.
 */
export async function adminViaServer(dataDir: string, baseUrl: string, argv: string[]): Promise<any> {
  const rt = JSON.parse(fs.readFileSync(path.join(dataDir, "server.json"), "utf8"));
  void baseUrl; // the admin endpoint is not on the public port: the internal listener's is in the runtime file
  const res = await fetch(`http://127.0.0.1:${rt.adminPort ?? rt.port}/api/internal/admin`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${rt.token}` },
    body: JSON.stringify({ argv }),
  });
  const out = await res.json();
  if (!out.ok) throw new Error(`admin ${argv.join(" ")}: ${JSON.stringify(out.error)}`);
  return out.result;
}

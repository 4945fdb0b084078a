import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** What `prs login` keeps: the key and the service it is for. */
export type Config = { api_key: string; base_url: string };

export const DEFAULT_BASE_URL = "http://127.0.0.1:3000";

/**
 * The OS's per-user config folder, then `prs`: `$XDG_CONFIG_HOME` or `~/.config` on Linux and
 * the BSDs, `~/Library/Application Support` on macOS, `%APPDATA%` on Windows.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === "win32") return path.join(env.APPDATA ?? path.join(os.homedir(), "AppData", "Roaming"), "prs");
  if (platform === "darwin") return path.join(os.homedir(), "Library", "Application Support", "prs");
  return path.join(env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), ".config"), "prs");
}

export const configFile = (env: NodeJS.ProcessEnv = process.env) => path.join(configDir(env), "config.json");

/** Written with mode 0600 in a 0700 folder: the key is a secret (a file that exists is narrowed too). */
export function saveConfig(config: Config, env: NodeJS.ProcessEnv = process.env): string {
  const file = configFile(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return file;
}

/** The saved config, with PRS_API_KEY / PRS_BASE_URL taking precedence; null when there is no key anywhere. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config | null {
  let saved: Partial<Config> = {};
  try {
    saved = JSON.parse(fs.readFileSync(configFile(env), "utf8")) as Partial<Config>;
  } catch {
    /* not logged in yet */
  }
  const api_key = env.PRS_API_KEY || saved.api_key;
  if (!api_key) return null;
  return { api_key, base_url: env.PRS_BASE_URL || saved.base_url || DEFAULT_BASE_URL };
}

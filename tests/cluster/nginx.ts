import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const NGINX = process.env.PRS_NGINX ?? "/usr/sbin/nginx";

export type Proxy = { baseUrl: string; stop: () => Promise<void> };

/**
 * nginx (Debian's package) in front of the instances, as a deployment would run it: round
 * robin, the client's address appended to X-Forwarded-For (the service reads the last entry,
 * TRUST_PROXY=1), a failed connection tried on the next instance — for idempotent methods
 * only, which is nginx's default: a POST that reached a dying instance is not sent twice.
 */
export async function startNginx(dir: string, port: number, upstreamPorts: number[]): Promise<Proxy> {
  fs.mkdirSync(dir, { recursive: true });
  const conf = path.join(dir, "nginx.conf");
  fs.writeFileSync(conf, `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 10m;
  # Bodies and answers stay in memory: nginx's workers may not write this test's folders.
  client_body_buffer_size 10m;
  proxy_buffering off;
  proxy_max_temp_file_size 0;
  upstream prs {
${upstreamPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join("\n")}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://prs;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
    }
  }
}
`);
  const proc = spawn(NGINX, ["-c", conf, "-p", dir, "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout!.on("data", (c) => (out += c));
  proc.stderr!.on("data", (c) => (out += c));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited: ${out}`);
    try {
      await fetch(`${baseUrl}/api/health`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not answer: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    baseUrl,
    stop: () => new Promise<void>((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once("exit", () => resolve());
      proc.kill("SIGQUIT");
      setTimeout(() => proc.kill("SIGKILL"), 5000).unref();
    }),
  };
}

// nginx (Debian's package) in front of several instances, as a deployment would run it; used
// by `npm run test:cluster` (tests/cluster) and `npm run bench:load`. Types: nginx.d.mts.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { aptInstall } from "./apt.mjs";

export const NGINX = process.env.PRS_NGINX ?? "/usr/sbin/nginx";

/** Install Debian's nginx with apt-get when it is missing; exits the process when that fails. */
export function ensureNginx() {
  if (!aptInstall("nginx", NGINX, "it is put in front of the instances")) return;
  // The package may start a system nginx on port 80; ours runs on its own port.
  spawnSync("sh", ["-c", "service nginx stop >/dev/null 2>&1 || true"]);
}

/**
 * nginx on 127.0.0.1:`port` in front of `upstreamPorts`: round robin, the client's address
 * appended to X-Forwarded-For (the service reads the last entry with TRUST_PROXY=1), a failed
 * connection tried on the next instance — for idempotent methods only, nginx's default: a POST
 * that reached a dying instance is not sent twice. Files go to `dir`. With `timingHeaders`
 * (bench:load) every answer names the instance that gave it (`X-Upstream`) and how long nginx
 * waited for that instance's response headers (`X-Upstream-Header-Time`, seconds), so a slow
 * request can be placed inside or outside the instances.
 */
export async function startNginx(dir, port, upstreamPorts, { timingHeaders = false } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  const conf = path.join(dir, "nginx.conf");
  fs.writeFileSync(conf, `
worker_processes 1;
worker_rlimit_nofile 16384;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
# Each proxied request holds two connections; an open-loop load above capacity queues thousands
# (1024 answered "worker_connections are not enough" with a 500 of nginx's own).
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 10m;
  # Bodies and answers stay in memory: nginx's workers may not write this run's folders.
  client_body_buffer_size 10m;
  proxy_buffering off;
  proxy_max_temp_file_size 0;
  upstream prs {
${upstreamPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join("\n")}
    keepalive 64;
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
      proxy_read_timeout 60s;${timingHeaders ? `
      add_header X-Upstream $upstream_addr always;
      add_header X-Upstream-Header-Time $upstream_header_time always;` : ""}
    }
  }
}
`);
  const proc = spawn(NGINX, ["-c", conf, "-p", dir, "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout.on("data", (c) => (out += c));
  proc.stderr.on("data", (c) => (out += c));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited: ${out}`);
    try {
      await fetch(`${baseUrl}/api/health/live`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not answer: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    baseUrl,
    stop: () => new Promise((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once("exit", () => resolve());
      proc.kill("SIGQUIT");
      setTimeout(() => proc.kill("SIGKILL"), 5000).unref();
    }),
  };
}

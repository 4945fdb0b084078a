// `npm start`: build if needed, then serve. Migrations run inside the server at start.
import { spawn } from "node:child_process";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
ensureBuild();
const port = process.env.PORT || "3000";
const host = process.env.HOSTNAME || "127.0.0.1";
const child = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs"), "-p", port, "-H", host], {
  cwd: root, stdio: "inherit", env: { ...process.env, PORT: port, NEXT_TELEMETRY_DISABLED: "1" },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

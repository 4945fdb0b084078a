export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { boot } = await import("./lib/server/boot");
    // Next logs a failing instrumentation hook and serves 500s anyway: a server that cannot
    // boot (invalid settings, no database) stops instead.
    await boot().catch(async (e: unknown) => {
      const { log } = await import("./lib/log/logger");
      log().fatal({ err: e }, "cannot start");
      process.exit(1);
    });
  }
}

export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { boot } = await import("./lib/server/boot");
    // Next logs a failing instrumentation hook and serves 500s anyway: a server that cannot
    // boot (invalid settings, no database) stops instead.
    await boot().catch((e: unknown) => {
      console.error("[prs] cannot start:", e instanceof Error ? e.message : e);
      process.exit(1);
    });
  }
}

import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  typedRoutes: false,
  // forbidden() answers 403 with app/forbidden.tsx (reviewer and admin pages).
  experimental: { authInterrupts: true },
};

export default nextConfig;

import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  typedRoutes: false,
  // forbidden() answers 403 with app/forbidden.tsx (reviewer and admin pages).
  experimental: {
    authInterrupts: true,
    // The portal's document upload (app/organisation) sends up to 10 MiB through a server action;
    // the proxy's own limit must let the same body through whole. Route handlers read with their own limits.
    serverActions: { bodySizeLimit: "11mb" },
    proxyClientMaxBodySize: "11mb",
  },
};

export default nextConfig;

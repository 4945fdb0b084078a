export * from "./accounts";
export * from "./records";
export * from "./events";
export * from "./challenges";
export * from "./webhooks";
export * from "./mandates";
export * from "./reviews";
export * from "./auth";

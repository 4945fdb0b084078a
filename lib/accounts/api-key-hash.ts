import { createHash } from "node:crypto";

export const hashApiKey = (secret: string) => createHash("sha256").update(secret).digest("hex");

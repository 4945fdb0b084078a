export declare const NGINX: string;
export declare function ensureNginx(): void;
export type Proxy = { baseUrl: string; stop: () => Promise<void> };
export declare function startNginx(dir: string, port: number, upstreamPorts: number[], options?: { timingHeaders?: boolean }): Promise<Proxy>;

export declare const CHROMIUM_FULL: string;
export declare const CHROMIUM_SHELL: string;
export declare function ensureChromium(): void;

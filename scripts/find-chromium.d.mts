export declare const HOW_TO_GET_ONE: string;
export declare const CHROMIUM_ARGS: string[];
export declare const PLAYWRIGHT_DISABLED_FEATURES: string[];
export declare const UNUSED_UI_FEATURES: string[];
export declare function findChromium(env?: NodeJS.ProcessEnv): Promise<{ path: string } | { error: string }>;
export declare function chromiumOrExit(env?: NodeJS.ProcessEnv): Promise<string>;

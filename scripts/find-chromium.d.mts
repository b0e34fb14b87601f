export declare const HOW_TO_GET_ONE: string;
export declare const CHROMIUM_ARGS: string[];
export declare const PLAYWRIGHT_DISABLED_FEATURES: string[];
export declare const UNUSED_UI_FEATURES: string[];
/** `headlessShell: false` skips chromium-headless-shell on the PATH (the full browser). */
export interface FindOptions {
  headlessShell?: boolean;
}
export declare function findChromium(
  env?: NodeJS.ProcessEnv,
  options?: FindOptions,
): Promise<{ path: string } | { error: string }>;
export declare function chromiumOrExit(env?: NodeJS.ProcessEnv, options?: FindOptions): Promise<string>;

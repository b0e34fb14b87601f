export declare function buildServer(outdir?: string): Promise<string>;

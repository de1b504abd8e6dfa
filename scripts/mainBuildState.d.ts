export declare const root: string;
export declare const buildStampPath: string;
export declare function mainBuildState(): "fresh" | "stale" | "missing";

export declare const root: string;
export declare const stampName: string;
export declare const buildStampPath: string;
export declare function mainBuildState(projectRoot?: string): "fresh" | "stale" | "missing";

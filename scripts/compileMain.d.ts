export declare function compileMain(projectRoot: string, compile: (outDir: string) => boolean): boolean;

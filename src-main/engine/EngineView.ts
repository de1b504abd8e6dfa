import type { EnginePool } from "./EnginePool.js";

/** What the catalog and the admin routes need from the engine pool (tests pass a fake). */
export type EngineView = Pick<EnginePool, "list" | "load" | "unload" | "applySettings" | "settingsInEffect">;

import { useStore } from "zustand";
import { usePerchStoreApi } from "./StoreContext.js";
import type { PerchState } from "./PerchState.js";

/** Reads a piece of the dashboard state; re-renders when that piece changes. */
export function usePerch<T>(selector: (state: PerchState) => T): T {
  return useStore(usePerchStoreApi(), selector);
}

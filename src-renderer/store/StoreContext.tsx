import { createContext, useContext, type ReactNode } from "react";
import type { PerchStore } from "./createPerchStore.js";

const StoreContext = createContext<PerchStore | null>(null);

export function StoreProvider({ store, children }: { store: PerchStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function usePerchStoreApi(): PerchStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error("usePerch outside <StoreProvider>");
  return store;
}

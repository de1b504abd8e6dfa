import { useEffect } from "react";
import { usePerchStoreApi } from "../store/StoreContext.js";
import { usePerch } from "../store/usePerch.js";

/**
 * Loads everything once, then keeps it fresh: models (load state changes under us) every 5 s,
 * server stats every 2 s while the server page is open. Actions never throw, so no catch here.
 */
export function useDashboardData(): void {
  const store = usePerchStoreApi();
  const page = usePerch((state) => state.page);

  useEffect(() => {
    const state = store.getState();
    void state.loadModels();
    void state.loadHistory();
    void state.loadServer();
    void state.refreshRuns();
    void state.loadUploadChoice();
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") void store.getState().loadModels();
    }, 5000);
    return () => window.clearInterval(timer);
  }, [store]);

  useEffect(() => {
    if (page !== "server") return;
    void store.getState().loadServer();
    const timer = window.setInterval(() => void store.getState().pollStats(), 2000);
    return () => window.clearInterval(timer);
  }, [page, store]);
}

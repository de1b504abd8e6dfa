import { useEffect } from "react";
import { pages, type Page } from "../store/createUiSlice.js";
import { usePerch } from "../store/usePerch.js";

const fromHash = (hash: string): Page | null => {
  const name = hash.replace(/^#\/?/, "");
  return (pages as readonly string[]).includes(name) ? (name as Page) : null;
};

/** Keeps the page in the URL (`#/benchmarks`), so reload and the tray's links land right. */
export function useHashPage(): void {
  const page = usePerch((state) => state.page);
  const setPage = usePerch((state) => state.setPage);

  useEffect(() => {
    const sync = () => {
      const fromUrl = fromHash(window.location.hash);
      if (fromUrl) setPage(fromUrl);
    };
    sync();
    window.addEventListener("hashchange", sync);
    return () => window.removeEventListener("hashchange", sync);
  }, [setPage]);

  useEffect(() => {
    if (fromHash(window.location.hash) !== page) window.history.replaceState(null, "", `#/${page}`);
  }, [page]);
}

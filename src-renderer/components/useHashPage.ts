import { useEffect, useState } from "react";
import { usePerch } from "../store/usePerch.js";
import { hashFor, parseHash } from "./hashRoute.js";

/**
 * Keeps the page in the URL (`#/benchmarks`), and on the chat page the open conversation
 * (`#/chat/<id>`), so reload and the tray's links land right: a reload during a streaming reply
 * reopens its conversation, which follows the reply still running.
 */
export function useHashPage(): void {
  const page = usePerch((state) => state.page);
  const conversationId = usePerch((state) => state.conversation?.id ?? null);
  const setPage = usePerch((state) => state.setPage);
  const openConversation = usePerch((state) => state.openConversation);
  // The conversation the URL asked for, while it opens: the URL keeps it meanwhile.
  const [opening, setOpening] = useState<string | null>(
    () => parseHash(window.location.hash)?.conversationId ?? null,
  );

  useEffect(() => {
    const sync = () => {
      const route = parseHash(window.location.hash);
      if (!route) return;
      setPage(route.page);
      const wanted = route.conversationId;
      if (!wanted) return;
      setOpening(wanted);
      void openConversation(wanted).finally(() =>
        setOpening((current) => (current === wanted ? null : current)),
      );
    };
    sync();
    window.addEventListener("hashchange", sync);
    return () => window.removeEventListener("hashchange", sync);
  }, [setPage, openConversation]);

  useEffect(() => {
    if (opening) return;
    const wanted = hashFor(page, conversationId);
    if (window.location.hash !== wanted) window.history.replaceState(null, "", wanted);
  }, [page, conversationId, opening]);
}

import { useTranslation } from "react-i18next";
import { pages } from "../store/createUiSlice.js";
import { usePerch } from "../store/usePerch.js";
import { LocaleSwitcher } from "./LocaleSwitcher.js";

const icons: Record<(typeof pages)[number], string> = {
  models: "▤",
  chat: "✎",
  benchmarks: "◔",
  server: "⇄",
  settings: "⚙",
};

/** Source list navigation, macOS style, with the server's state and the language menu. */
export function Sidebar() {
  const { t } = useTranslation();
  const page = usePerch((state) => state.page);
  const setPage = usePerch((state) => state.setPage);
  const modelsError = usePerch((state) => state.modelsError);
  const models = usePerch((state) => state.models);
  const runs = usePerch((state) => state.runs);
  const running = Object.values(runs).filter(
    (run) => run.status === "running" || run.status === "queued",
  ).length;
  const loaded = models.filter((model) => model.load.state === "loaded").length;

  return (
    <nav className="sidebar" aria-label={t("nav.label")}>
      <div className="brand">
        <img className="brand-mark" src="./favicon.png" alt="" width={24} height={24} />
        <span className="brand-name">Perch</span>
      </div>
      <ul className="nav-list">
        {pages.map((name) => (
          <li key={name}>
            <button
              type="button"
              className={page === name ? "nav-item nav-item-active" : "nav-item"}
              aria-current={page === name ? "page" : undefined}
              onClick={() => setPage(name)}
              data-testid={`nav-${name}`}
            >
              <span className="nav-icon" aria-hidden="true">
                {icons[name]}
              </span>
              <span className="nav-label">{t(`nav.${name}`)}</span>
              {name === "models" && models.length > 0 ? (
                <span className="nav-count">{models.length}</span>
              ) : null}
              {name === "benchmarks" && running > 0 ? (
                <span className="nav-count nav-count-live">{running}</span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
      <div className="sidebar-footer">
        <div className="server-state" data-testid="server-state">
          <span className={modelsError ? "load-dot dot-error" : "load-dot dot-ok"} aria-hidden="true" />
          <span>
            {modelsError?.code === "unauthorized"
              ? t("apiKey.title")
              : modelsError
                ? t("nav.disconnected")
                : t("nav.connected", { count: loaded })}
          </span>
        </div>
        <LocaleSwitcher />
      </div>
    </nav>
  );
}

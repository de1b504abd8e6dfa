import "./configureZod.js";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { App } from "./App.js";
import { createDefaultClient } from "./client/createDefaultClient.js";
import { createI18n, initialLocale } from "./i18n/createI18n.js";
import { createPerchStore } from "./store/createPerchStore.js";
import { StoreProvider } from "./store/StoreContext.js";
import "./styles/index.css";

const store = createPerchStore({
  client: createDefaultClient(),
  storage: window.localStorage,
  now: Date.now,
});
const i18n = createI18n(initialLocale(window.localStorage, navigator.languages));

createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <StoreProvider store={store}>
        <App />
      </StoreProvider>
    </I18nextProvider>
  </StrictMode>,
);

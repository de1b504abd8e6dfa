import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createI18n } from "../../../src-renderer/i18n/createI18n.js";
import type { PerchState } from "../../../src-renderer/store/PerchState.js";
import { StoreProvider } from "../../../src-renderer/store/StoreContext.js";
import { storeWith } from "./fakeClient.js";

/** `children` rendered to HTML in English over a store holding `state` (a fake client behind it). */
export function renderWithStore(children: ReactElement, state: Partial<PerchState>): string {
  const { store } = storeWith({});
  store.setState(state);
  // A server render reads zustand's initial state (getServerSnapshot): it is the state set here.
  store.getInitialState = store.getState;
  return renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n: createI18n("en") },
      createElement(StoreProvider, { store, children }),
    ),
  );
}

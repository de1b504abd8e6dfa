/**
 * The menu-bar tray's strings in the dashboard's languages (en, de, ja). i18next resources: the
 * main process translates them with i18next like the dashboard does, `{{name}}` interpolation.
 */
export const trayMessages = {
  en: {
    serverStopped: "Server stopped",
    serverStarting: "Server starting…",
    serverRunning: "Server running",
    serverStopping: "Server stopping…",
    serverFailed: "Server failed to start",
    address: "Address: {{url}}",
    startServer: "Start Server",
    stopServer: "Stop Server",
    noModelsLoaded: "No models loaded",
    loadedModels: "Loaded Models",
    modelLoading: "{{id}} (loading…)",
    modelInUse: "{{id}} ({{count}} in use)",
    unload: "Unload",
    openDashboard: "Open Dashboard",
    settings: "Settings…",
    openLogs: "Open Logs",
    quit: "Quit Perch",
    tooltipServing: "Perch — serving at {{url}}",
    tooltipStatus: "Perch — {{status}}",
  },
  de: {
    serverStopped: "Server gestoppt",
    serverStarting: "Server startet…",
    serverRunning: "Server läuft",
    serverStopping: "Server stoppt…",
    serverFailed: "Server konnte nicht starten",
    address: "Adresse: {{url}}",
    startServer: "Server starten",
    stopServer: "Server stoppen",
    noModelsLoaded: "Keine Modelle geladen",
    loadedModels: "Geladene Modelle",
    modelLoading: "{{id}} (wird geladen…)",
    modelInUse: "{{id}} ({{count}} in Benutzung)",
    unload: "Entladen",
    openDashboard: "Dashboard öffnen",
    settings: "Einstellungen…",
    openLogs: "Logs öffnen",
    quit: "Perch beenden",
    tooltipServing: "Perch — bedient {{url}}",
    tooltipStatus: "Perch — {{status}}",
  },
  ja: {
    serverStopped: "サーバー停止中",
    serverStarting: "サーバー起動中…",
    serverRunning: "サーバー稼働中",
    serverStopping: "サーバー停止処理中…",
    serverFailed: "サーバーを起動できませんでした",
    address: "アドレス: {{url}}",
    startServer: "サーバーを起動",
    stopServer: "サーバーを停止",
    noModelsLoaded: "読み込まれたモデルはありません",
    loadedModels: "読み込み済みモデル",
    modelLoading: "{{id}}（読み込み中…）",
    modelInUse: "{{id}}（{{count}} 件使用中）",
    unload: "アンロード",
    openDashboard: "ダッシュボードを開く",
    settings: "設定…",
    openLogs: "ログを開く",
    quit: "Perch を終了",
    tooltipServing: "Perch — {{url}} で提供中",
    tooltipStatus: "Perch — {{status}}",
  },
} as const satisfies Record<string, Record<string, string>>;

export type TrayLocale = keyof typeof trayMessages;
export type TrayMessageKey = keyof (typeof trayMessages)["en"];

/** The first of the user's languages (BCP 47, best first) that the tray speaks, else English. */
export function matchTrayLocale(languages: readonly string[]): TrayLocale {
  for (const language of languages) {
    const base = language.toLowerCase().split(/[-_]/)[0];
    if (base in trayMessages) return base as TrayLocale;
  }
  return "en";
}

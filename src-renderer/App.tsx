import { ChatPage } from "./chat/ChatPage.js";
import { BenchmarksPage } from "./benchmarks/BenchmarksPage.js";
import { DrilldownModal } from "./benchmarks/DrilldownModal.js";
import { ApiKeyDialog } from "./components/ApiKeyDialog.js";
import { Sidebar } from "./components/Sidebar.js";
import { Toasts } from "./components/Toasts.js";
import { useDashboardData } from "./components/useDashboardData.js";
import { useHashPage } from "./components/useHashPage.js";
import { WindowDragRegion } from "./components/WindowDragRegion.js";
import { ModelsPage } from "./models/ModelsPage.js";
import { ServerPage } from "./server/ServerPage.js";
import { GlobalSettingsPage } from "./settings/GlobalSettingsPage.js";
import { SettingsModal } from "./settings/SettingsModal.js";
import { usePerch } from "./store/usePerch.js";

export function App() {
  useHashPage();
  useDashboardData();
  const page = usePerch((state) => state.page);
  return (
    <div className="app">
      <WindowDragRegion />
      <Sidebar />
      <main className="content">
        {page === "models" ? <ModelsPage /> : null}
        {page === "chat" ? <ChatPage /> : null}
        {page === "benchmarks" ? <BenchmarksPage /> : null}
        {page === "server" ? <ServerPage /> : null}
        {page === "settings" ? <GlobalSettingsPage /> : null}
      </main>
      <SettingsModal />
      <DrilldownModal />
      <ApiKeyDialog />
      <Toasts />
    </div>
  );
}

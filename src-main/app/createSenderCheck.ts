/** The parts of an IPC event the sender check reads (Electron's `IpcMainEvent` has them). */
export interface IpcSenderLike {
  sender: { id: number };
  senderFrame: { url: string } | null;
}

/**
 * Only our dashboard window may talk to the main process: the message must come from its
 * webContents, and from a frame showing our own page (not a page it was navigated to).
 */
export function createSenderCheck(options: {
  dashboardWebContentsId: () => number | null;
  /** e.g. `file:///Applications/Perch.app/.../dist/renderer/index.html` */
  pageUrl: string;
}): (event: IpcSenderLike) => boolean {
  return (event) => {
    const id = options.dashboardWebContentsId();
    if (id === null || event.sender.id !== id) return false;
    const url = event.senderFrame?.url;
    if (!url) return false;
    return url.split("#")[0].split("?")[0] === options.pageUrl;
  };
}

/**
 * The Mac app's dashboard window has no title bar (`titleBarStyle: "hiddenInset"`): the traffic
 * lights sit on the page, and the page must provide the area that drags the window. True inside
 * the app (the preload bridge is there) on macOS; false in a browser, where the browser has a title bar.
 */
export function hasInsetTitleBar(context: { perch?: unknown; navigator: { userAgent: string } }): boolean {
  return context.perch !== undefined && /Macintosh|Mac OS X/.test(context.navigator.userAgent);
}

/**
 * The same file in `app.asar.unpacked` when `location` (a path or file URL) points inside the
 * packaged app's `app.asar`; unchanged everywhere else (a checkout, `perch serve`). Worker threads
 * and child processes get real files this way: electron-builder's `asarUnpack` puts them there.
 */
export function asarUnpackedPath(location: string): string {
  return location.replace(/([\\/])app\.asar(?=[\\/])/, "$1app.asar.unpacked");
}

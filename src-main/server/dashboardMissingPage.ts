/**
 * What `GET /` answers when the dashboard was never built (a checkout where the renderer build
 * step did not run): how to build it, instead of a JSON 404.
 */
export function dashboardMissingPage(): string {
  // The page never names the folder: a server bound beyond loopback must not tell its paths.
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Perch</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}code,pre{background:#f3f3f3;padding:.1rem .3rem;border-radius:4px}</style>
</head>
<body>
<h1>Perch is running</h1>
<p>The API works: <code>/v1/chat/completions</code>, <code>/v1/messages</code>, <code>/admin/api/*</code>.</p>
<p>The web dashboard is not built yet (no <code>dist/renderer</code>). Build it from the Perch folder, then reload this page:</p>
<pre>npm run build:renderer</pre>
<p>(<code>npm ci</code> builds it too, unless install scripts are turned off.)</p>
</body>
</html>
`;
}

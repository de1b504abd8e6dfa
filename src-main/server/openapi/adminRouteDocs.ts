import { apiRoutes, apiStreams, type RouteSpec } from "../../../src-shared/contracts/api.js";
import type { RouteDoc } from "./buildOpenApiDocument.js";

const summaryOf = (name: string) => name.replace(/([A-Z])/g, " $1").toLowerCase();

/** The admin API as the dashboard's route table describes it (one description for all uses). */
export function adminRouteDocs(): RouteDoc[] {
  const routes: RouteDoc[] = Object.entries(apiRoutes as Record<string, RouteSpec>).map(([name, spec]) => ({
    method: spec.method,
    path: spec.path,
    summary: summaryOf(name),
    body: spec.body,
    response: spec.response,
    stream: spec.path.endsWith("/stream"),
  }));
  // The progress streams (server-sent events), so a client finds them beside their routes.
  const streams: RouteDoc[] = Object.entries(apiStreams).map(([name, spec]) => ({
    method: "GET",
    path: spec.path,
    summary: `${summaryOf(name)} stream (server-sent events)`,
    stream: true,
  }));
  const known = new Set(routes.map((route) => `${route.method} ${route.path}`));
  return [...routes, ...streams.filter((route) => !known.has(`${route.method} ${route.path}`))];
}

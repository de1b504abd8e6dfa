import { apiRoutes, type RouteSpec } from "../../../src-shared/contracts/api.js";
import type { RouteDoc } from "./buildOpenApiDocument.js";

/** The admin API as the dashboard's route table describes it (one description for all uses). */
export function adminRouteDocs(): RouteDoc[] {
  return Object.entries(apiRoutes as Record<string, RouteSpec>).map(([name, spec]) => ({
    method: spec.method,
    path: spec.path,
    summary: name.replace(/([A-Z])/g, " $1").toLowerCase(),
    body: spec.body,
    response: spec.response,
    stream: spec.path.endsWith("/stream"),
  }));
}

import { z } from "zod";
import {
  downloadEventSchema,
  downloadRequestSchema,
  downloadRunIdSchema,
  downloadRunListResponseSchema,
  downloadRunSchema,
  healthResponseSchema,
  repoFilesQuerySchema,
  repoFilesResponseSchema,
  updateCheckAllResponseSchema,
  updateCheckResultSchema,
} from "./catalog.js";
import {
  applyPresetResponseSchema,
  applyTemplateBodySchema,
  deleteModelResponseSchema,
  deleteProfileResponseSchema,
  deleteTemplateResponseSchema,
  loadModelBodySchema,
  loadModelResponseSchema,
  modelIdParamsSchema,
  modelListResponseSchema,
  modelRowSchema,
  profileListResponseSchema,
  profileParamsSchema,
  putModelSettingsBodySchema,
  putModelSettingsResponseSchema,
  putProfileBodySchema,
  putTemplateBodySchema,
  templateListResponseSchema,
  templateParamsSchema,
  reloadResponseSchema,
  rescanResponseSchema,
  unloadModelResponseSchema,
} from "./models.js";
import {
  resultDeleteResponseSchema,
  resultIdSchema,
  resultListQuerySchema,
  resultResetBodySchema,
  resultResetResponseSchema,
} from "./results.js";
import {
  conversationListResponseSchema,
  conversationMarkdownResponseSchema,
  conversationParamsSchema,
  conversationPatchSchema,
  conversationSchema,
  conversationViewSchema,
  deleteConversationResponseSchema,
  replyCancelResponseSchema,
  replyEventSchema,
  replyParamsSchema,
  replyRequestSchema,
  replyStartResponseSchema,
} from "./chat.js";
import {
  globalSettingsPatchSchema,
  globalSettingsResponseSchema,
  modelProfileSchema,
  settingsTemplateSchema,
} from "./settings.js";
import { serverStatsSchema } from "./stats.js";
import { accuracyResultListSchema, accuracyResultSchema } from "./accuracy.js";
import {
  evalQueueListingSchema,
  evalRunAddRequestSchema,
  evalRunEventSchema,
  evalRunParamsSchema,
  evalRunSummarySchema,
} from "./evalQueue.js";
import {
  performanceResultListSchema,
  performanceResultSchema,
  perfActiveResponseSchema,
  perfEventSchema,
  perfResultParamsSchema,
  perfRunInfoSchema,
  perfRunParamsSchema,
  perfRunRequestSchema,
  perfStartResponseSchema,
  uploadPreviewQuerySchema,
  uploadPreviewResponseSchema,
  uploadRetryResponseSchema,
} from "./performance.js";

/*
 * The route table of the admin API: one entry per route, by name, with its request and response
 * schemas. The renderer's client (HTTP and IPC transports) and the Electron IPC handler both read
 * it, so a route is described once and validated the same way on every path.
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface RouteSpec {
  method: HttpMethod;
  /** Path template; `:name` segments are filled from `params` (URL-encoded, one segment each). */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
}

const route = <const R extends RouteSpec>(spec: R): R => spec;

const resultIdParamsSchema = z.object({ result_id: resultIdSchema }).strict();
const downloadIdParamsSchema = z.object({ run_id: downloadRunIdSchema }).strict();

export const apiRoutes = {
  // Models (catalog issue).
  listModels: route({ method: "GET", path: "/admin/api/models", response: modelListResponseSchema }),
  getModel: route({
    method: "GET",
    path: "/admin/api/models/:model_id",
    params: modelIdParamsSchema,
    response: modelRowSchema,
  }),
  putModelSettings: route({
    method: "PUT",
    path: "/admin/api/models/:model_id/settings",
    params: modelIdParamsSchema,
    body: putModelSettingsBodySchema,
    response: putModelSettingsResponseSchema,
  }),
  deleteModel: route({
    method: "DELETE",
    path: "/admin/api/models/:model_id",
    params: modelIdParamsSchema,
    response: deleteModelResponseSchema,
  }),
  checkModelUpdate: route({
    method: "POST",
    path: "/admin/api/models/:model_id/check-update",
    params: modelIdParamsSchema,
    response: updateCheckResultSchema,
  }),
  checkModelUpdates: route({
    method: "POST",
    path: "/admin/api/models/check-updates",
    response: updateCheckAllResponseSchema,
  }),
  loadModel: route({
    method: "POST",
    path: "/admin/api/models/:model_id/load",
    params: modelIdParamsSchema,
    body: loadModelBodySchema,
    response: loadModelResponseSchema,
  }),
  unloadModel: route({
    method: "POST",
    path: "/admin/api/models/:model_id/unload",
    params: modelIdParamsSchema,
    response: unloadModelResponseSchema,
  }),
  reload: route({ method: "POST", path: "/admin/api/reload", response: reloadResponseSchema }),
  rescan: route({ method: "POST", path: "/admin/api/rescan", response: rescanResponseSchema }),

  // Profiles (per model) and templates (global) of model settings.
  listProfiles: route({
    method: "GET",
    path: "/admin/api/models/:model_id/profiles",
    params: modelIdParamsSchema,
    response: profileListResponseSchema,
  }),
  putProfile: route({
    method: "PUT",
    path: "/admin/api/models/:model_id/profiles/:name",
    params: profileParamsSchema,
    body: putProfileBodySchema,
    response: modelProfileSchema,
  }),
  deleteProfile: route({
    method: "DELETE",
    path: "/admin/api/models/:model_id/profiles/:name",
    params: profileParamsSchema,
    response: deleteProfileResponseSchema,
  }),
  applyProfile: route({
    method: "POST",
    path: "/admin/api/models/:model_id/profiles/:name/apply",
    params: profileParamsSchema,
    response: applyPresetResponseSchema,
  }),
  listTemplates: route({ method: "GET", path: "/admin/api/templates", response: templateListResponseSchema }),
  putTemplate: route({
    method: "PUT",
    path: "/admin/api/templates/:name",
    params: templateParamsSchema,
    body: putTemplateBodySchema,
    response: settingsTemplateSchema,
  }),
  deleteTemplate: route({
    method: "DELETE",
    path: "/admin/api/templates/:name",
    params: templateParamsSchema,
    response: deleteTemplateResponseSchema,
  }),
  applyTemplate: route({
    method: "POST",
    path: "/admin/api/templates/:name/apply",
    params: templateParamsSchema,
    body: applyTemplateBodySchema,
    response: applyPresetResponseSchema,
  }),

  // Downloads (catalog issue).
  listRepoFiles: route({
    method: "GET",
    path: "/admin/api/downloads/repo-files",
    query: repoFilesQuerySchema,
    response: repoFilesResponseSchema,
  }),
  startDownload: route({
    method: "POST",
    path: "/admin/api/downloads",
    body: downloadRequestSchema,
    response: downloadRunSchema,
  }),
  listDownloads: route({
    method: "GET",
    path: "/admin/api/downloads",
    response: downloadRunListResponseSchema,
  }),
  getDownload: route({
    method: "GET",
    path: "/admin/api/downloads/:run_id",
    params: downloadIdParamsSchema,
    response: downloadRunSchema,
  }),
  cancelDownload: route({
    method: "POST",
    path: "/admin/api/downloads/:run_id/cancel",
    params: downloadIdParamsSchema,
    response: downloadRunSchema,
  }),
  resumeDownload: route({
    method: "POST",
    path: "/admin/api/downloads/:run_id/resume",
    params: downloadIdParamsSchema,
    response: downloadRunSchema,
  }),

  // Accuracy runs and results (evals + catalog issues).
  queueAccuracyRun: route({
    method: "POST",
    path: "/admin/api/bench/accuracy/queue",
    body: evalRunAddRequestSchema,
    response: evalRunSummarySchema,
  }),
  listAccuracyQueue: route({
    method: "GET",
    path: "/admin/api/bench/accuracy/queue",
    response: evalQueueListingSchema,
  }),
  removeAccuracyRun: route({
    method: "DELETE",
    path: "/admin/api/bench/accuracy/queue/:run_id",
    params: evalRunParamsSchema,
    response: evalRunSummarySchema,
  }),
  cancelAccuracyRun: route({
    method: "POST",
    path: "/admin/api/bench/accuracy/:run_id/cancel",
    params: evalRunParamsSchema,
    response: evalRunSummarySchema,
  }),
  listAccuracyResults: route({
    method: "GET",
    path: "/admin/api/bench/accuracy/results",
    query: resultListQuerySchema,
    response: accuracyResultListSchema,
  }),
  getAccuracyResult: route({
    method: "GET",
    path: "/admin/api/bench/accuracy/results/:result_id",
    params: resultIdParamsSchema,
    response: accuracyResultSchema,
  }),
  deleteAccuracyResult: route({
    method: "DELETE",
    path: "/admin/api/bench/accuracy/results/:result_id",
    params: resultIdParamsSchema,
    response: resultDeleteResponseSchema,
  }),
  resetAccuracyResults: route({
    method: "POST",
    path: "/admin/api/bench/accuracy/results/reset",
    body: resultResetBodySchema,
    response: resultResetResponseSchema,
  }),

  // Performance runs and results (perf + catalog issues).
  startPerformanceRun: route({
    method: "POST",
    path: "/admin/api/bench/start",
    body: perfRunRequestSchema,
    response: perfStartResponseSchema,
  }),
  activePerformanceRun: route({
    method: "GET",
    path: "/admin/api/bench/active",
    response: perfActiveResponseSchema,
  }),
  cancelPerformanceRun: route({
    method: "POST",
    path: "/admin/api/bench/:run_id/cancel",
    params: perfRunParamsSchema,
    response: perfRunInfoSchema,
  }),
  listPerformanceResults: route({
    method: "GET",
    path: "/admin/api/bench/results",
    query: resultListQuerySchema,
    response: performanceResultListSchema,
  }),
  getPerformanceResult: route({
    method: "GET",
    path: "/admin/api/bench/results/:result_id",
    params: resultIdParamsSchema,
    response: performanceResultSchema,
  }),
  deletePerformanceResult: route({
    method: "DELETE",
    path: "/admin/api/bench/results/:result_id",
    params: resultIdParamsSchema,
    response: resultDeleteResponseSchema,
  }),
  resetPerformanceResults: route({
    method: "POST",
    path: "/admin/api/bench/results/reset",
    body: resultResetBodySchema,
    response: resultResetResponseSchema,
  }),
  retryPerformanceUpload: route({
    method: "POST",
    path: "/admin/api/bench/results/:result_id/upload",
    params: perfResultParamsSchema,
    response: uploadRetryResponseSchema,
  }),
  uploadPreview: route({
    method: "GET",
    path: "/admin/api/bench/upload/preview",
    query: uploadPreviewQuerySchema,
    response: uploadPreviewResponseSchema,
  }),

  // Chat (conversations under <base>/conversations, replies generated and saved by the server).
  listConversations: route({
    method: "GET",
    path: "/admin/api/conversations",
    response: conversationListResponseSchema,
  }),
  createConversation: route({
    method: "POST",
    path: "/admin/api/conversations",
    body: conversationPatchSchema,
    response: conversationSchema,
  }),
  getConversation: route({
    method: "GET",
    path: "/admin/api/conversations/:conversation_id",
    params: conversationParamsSchema,
    response: conversationViewSchema,
  }),
  updateConversation: route({
    method: "PUT",
    path: "/admin/api/conversations/:conversation_id",
    params: conversationParamsSchema,
    body: conversationPatchSchema,
    response: conversationSchema,
  }),
  deleteConversation: route({
    method: "DELETE",
    path: "/admin/api/conversations/:conversation_id",
    params: conversationParamsSchema,
    response: deleteConversationResponseSchema,
  }),
  exportConversation: route({
    method: "GET",
    path: "/admin/api/conversations/:conversation_id/markdown",
    params: conversationParamsSchema,
    response: conversationMarkdownResponseSchema,
  }),
  startReply: route({
    method: "POST",
    path: "/admin/api/conversations/:conversation_id/replies",
    params: conversationParamsSchema,
    body: replyRequestSchema,
    response: replyStartResponseSchema,
  }),
  cancelReply: route({
    method: "POST",
    path: "/admin/api/chat/replies/:reply_id/cancel",
    params: replyParamsSchema,
    response: replyCancelResponseSchema,
  }),

  // Server and settings.
  stats: route({ method: "GET", path: "/admin/api/stats", response: serverStatsSchema }),
  health: route({ method: "GET", path: "/admin/api/health", response: healthResponseSchema }),
  getSettings: route({ method: "GET", path: "/admin/api/settings", response: globalSettingsResponseSchema }),
  putSettings: route({
    method: "PUT",
    path: "/admin/api/settings",
    body: globalSettingsPatchSchema,
    response: globalSettingsResponseSchema,
  }),
} as const satisfies Record<string, RouteSpec>;

export type ApiRoutes = typeof apiRoutes;
export type RouteName = keyof ApiRoutes;
export const routeNames = Object.keys(apiRoutes) as RouteName[];

type Part<R, K extends "params" | "query" | "body"> = R extends { [P in K]: infer S extends z.ZodType }
  ? undefined extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: never };

/** What a caller passes for a route: `{params, query, body}`, each only where the route has one. */
export type RouteInput<N extends RouteName> = Part<ApiRoutes[N], "params"> &
  Part<ApiRoutes[N], "query"> &
  Part<ApiRoutes[N], "body">;
export type RouteOutput<N extends RouteName> = z.output<ApiRoutes[N]["response"]>;

/** Progress streams (SSE over HTTP, IPC events in Electron); a late subscriber gets a replay. */
export const apiStreams = {
  accuracyRun: {
    path: "/admin/api/bench/accuracy/:run_id/stream",
    params: evalRunParamsSchema,
    event: evalRunEventSchema,
  },
  performanceRun: {
    path: "/admin/api/bench/:run_id/stream",
    params: perfRunParamsSchema,
    event: perfEventSchema,
  },
  download: {
    path: "/admin/api/downloads/:run_id/stream",
    params: downloadIdParamsSchema,
    event: downloadEventSchema,
  },
  chatReply: {
    path: "/admin/api/chat/replies/:reply_id/stream",
    params: replyParamsSchema,
    event: replyEventSchema,
  },
} as const satisfies Record<string, { path: string; params: z.ZodType; event: z.ZodType }>;

export type ApiStreams = typeof apiStreams;
export type StreamName = keyof ApiStreams;
export const streamNames = Object.keys(apiStreams) as StreamName[];
export type StreamParams<S extends StreamName> = z.input<ApiStreams[S]["params"]>;
export type StreamEvent<S extends StreamName> = z.output<ApiStreams[S]["event"]>;

/** The settings form's label of each setting a restart applies, to name them as the user knows them. */
const fieldLabels: Record<string, string> = {
  host: "global.host",
  port: "global.port",
  api_key: "global.apiKey",
  allow_remote_admin: "global.remoteAdmin",
  threads: "global.threads",
  default_ttl_seconds: "global.ttl",
  memory_budget_bytes: "global.memoryBudget",
  models_dirs: "global.modelsDirs",
};

/** `restart_required` as the form names those settings ("Port, Default idle unload (s)"). */
export function settingLabels(fields: readonly string[], t: (key: string) => string): string {
  return fields.map((field) => (field in fieldLabels ? t(fieldLabels[field]!) : field)).join(", ");
}

import { z } from "zod";

/**
 * The Electron app's own preferences (`electron-store`): only what a headless server has no use
 * for. The port, the model folders and every other server setting have one owner, `settings.json`
 * (the dashboard's settings page, shared with `perch serve`).
 */
export const appPreferencesSchema = z.object({
  /** Start Perch when the user logs in. Defaults to `false`. */
  launch_at_login: z.boolean().default(false),
  /** Start the HTTP server when the app starts. Defaults to `true`. */
  serve_on_launch: z.boolean().default(true),
});
export type AppPreferences = z.infer<typeof appPreferencesSchema>;

export const appPreferencesPatchSchema = z
  .object({ launch_at_login: z.boolean(), serve_on_launch: z.boolean() })
  .partial()
  .strict();
export type AppPreferencesPatch = z.infer<typeof appPreferencesPatchSchema>;

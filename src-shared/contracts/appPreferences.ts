import { z } from "zod";
import { globalSettingsSchema } from "./settings.js";

/**
 * The Electron app's preferences (`electron-store`): the server fields are the headless global
 * settings' own schemas (one definition for both), plus what only an app has.
 */
export const appPreferencesSchema = globalSettingsSchema.pick({ port: true, models_dirs: true }).extend({
  /** Start Perch when the user logs in. Defaults to `false`. */
  launch_at_login: z.boolean().default(false),
  /** Start the HTTP server when the app starts. Defaults to `true`. */
  serve_on_launch: z.boolean().default(true),
});
export type AppPreferences = z.infer<typeof appPreferencesSchema>;

export const appPreferencesPatchSchema = z
  .object({
    port: globalSettingsSchema.shape.port.unwrap(),
    models_dirs: globalSettingsSchema.shape.models_dirs.unwrap(),
    launch_at_login: z.boolean(),
    serve_on_launch: z.boolean(),
  })
  .partial()
  .strict();
export type AppPreferencesPatch = z.infer<typeof appPreferencesPatchSchema>;

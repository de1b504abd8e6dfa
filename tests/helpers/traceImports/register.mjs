// `node --import ./register.mjs …` installs the tracing hooks beside it.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);

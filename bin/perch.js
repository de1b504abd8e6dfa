#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): Node sizes libuv's thread pool from UV_THREADPOOL_SIZE
// when the pool first runs work, and an ES-module entry has already used it to read its own files
// by the time its first line runs. A CommonJS entry loads synchronously, so this line comes first.
// Perch's decodes run on that pool (scripts/uvThreadPoolSize.cjs says why its size matters). A value
// the user set is kept.
"use strict";
if (!process.env.UV_THREADPOOL_SIZE)
  process.env.UV_THREADPOOL_SIZE = require("../scripts/uvThreadPoolSize.cjs").uvThreadPoolSize;
import("./perchMain.mjs").catch((error) => {
  process.stderr.write(`perch: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

// The size of libuv's thread pool Perch runs with, unless UV_THREADPOOL_SIZE is set (README: "Notes
// on CPUs"): node-llama-cpp's decodes run on that pool, and with Node's default 4 threads a CPU
// decode's compute threads run out of step. One thread decodes faster still on a small Linux CPU
// box at several clients, but then every file read or write (the dashboard's own script, a
// download) waits behind the decodes, and a model load holds up every decode: README, "2 threads,
// 8 clients". CommonJS, so bin/perch.js can read it before anything starts the pool; also read by
// scripts/start.js (Electron in development) and electron.config.ts (the packaged app's
// LSEnvironment).
"use strict";
module.exports = { uvThreadPoolSize: "2" };

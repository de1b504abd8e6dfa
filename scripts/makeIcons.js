#!/usr/bin/env node
// Draws Perch's icons with a tiny PNG encoder (no image library): a bird perched on a branch.
// Writes the menu-bar template images (black + alpha, so macOS tints them for light and dark
// menu bars) and the app icon. Run: node scripts/makeIcons.js
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buffer) => {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** RGBA pixels (Uint8Array, width*height*4) → PNG bytes. */
function encodePng(width, height, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    rows[y * (width * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, y * width * 4, width * 4).copy(rows, y * (width * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

// The bird, in unit coordinates (0..1, y down).
const inEllipse = (x, y, cx, cy, rx, ry, angle) => {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const dx = x - cx;
  const dy = y - cy;
  const u = (dx * cos + dy * sin) / rx;
  const v = (-dx * sin + dy * cos) / ry;
  return u * u + v * v <= 1;
};
const inTriangle = (x, y, [ax, ay], [bx, by], [cx, cy]) => {
  const d1 = (x - bx) * (ay - by) - (ax - bx) * (y - by);
  const d2 = (x - cx) * (by - cy) - (bx - cx) * (y - cy);
  const d3 = (x - ax) * (cy - ay) - (cx - ax) * (y - ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
};
const nearSegment = (x, y, [ax, ay], [bx, by], width) => {
  const t = Math.max(
    0,
    Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)),
  );
  return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))) <= width / 2;
};

function bird(x, y, { eye }) {
  if (eye && Math.hypot(x - 0.665, y - 0.325) < 0.032) return false;
  return (
    inEllipse(x, y, 0.46, 0.52, 0.27, 0.17, -0.42) || // body
    Math.hypot(x - 0.655, y - 0.335) <= 0.125 || // head
    inTriangle(x, y, [0.75, 0.29], [0.91, 0.345], [0.755, 0.38]) || // beak
    inTriangle(x, y, [0.3, 0.55], [0.06, 0.7], [0.24, 0.7]) || // tail
    nearSegment(x, y, [0.44, 0.66], [0.42, 0.8], 0.05) || // legs
    nearSegment(x, y, [0.54, 0.63], [0.55, 0.8], 0.05) ||
    nearSegment(x, y, [0.08, 0.83], [0.94, 0.83], 0.075) // branch
  );
}

/** Coverage of the shape per pixel, 4×4 supersampled for smooth edges. */
function coverage(size, inset, inside) {
  const samples = 4;
  const alpha = new Float32Array(size * size);
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      let hits = 0;
      for (let sy = 0; sy < samples; sy += 1) {
        for (let sx = 0; sx < samples; sx += 1) {
          const x = ((px + (sx + 0.5) / samples) / size - inset) / (1 - 2 * inset);
          const y = ((py + (sy + 0.5) / samples) / size - inset) / (1 - 2 * inset);
          if (inside(x, y)) hits += 1;
        }
      }
      alpha[py * size + px] = hits / (samples * samples);
    }
  }
  return alpha;
}

function trayTemplate(size) {
  const alpha = coverage(size, 0.02, (x, y) => bird(x, y, { eye: false }));
  const rgba = new Uint8Array(size * size * 4);
  alpha.forEach((a, i) => (rgba[i * 4 + 3] = Math.round(a * 255)));
  return encodePng(size, size, rgba);
}

function appIcon(size) {
  // macOS icon grid: a rounded square inset ~10%, blue gradient, white bird.
  const square = coverage(size, 0.1, (x, y) => {
    const r = 0.225;
    const dx = Math.max(r - x, 0, x - (1 - r));
    const dy = Math.max(r - y, 0, y - (1 - r));
    return x >= 0 && x <= 1 && y >= 0 && y <= 1 && Math.hypot(dx, dy) <= r;
  });
  const mark = coverage(size, 0.27, (x, y) => bird(x, y, { eye: true }));
  const rgba = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i += 1) {
    const t = Math.floor(i / size) / size;
    const top = [64, 150, 240];
    const bottom = [10, 70, 170];
    const bg = top.map((c, k) => c + (bottom[k] - c) * t);
    const m = mark[i];
    rgba[i * 4] = Math.round(bg[0] * (1 - m) + 255 * m);
    rgba[i * 4 + 1] = Math.round(bg[1] * (1 - m) + 255 * m);
    rgba[i * 4 + 2] = Math.round(bg[2] * (1 - m) + 255 * m);
    rgba[i * 4 + 3] = Math.round(square[i] * 255);
  }
  return encodePng(size, size, rgba);
}

const outputs = {
  "assets/trayTemplate.png": trayTemplate(16),
  "assets/trayTemplate@2x.png": trayTemplate(32),
  "assets/icon.png": appIcon(1024),
  // The dashboard's tab icon (Vite copies src-renderer/public as is).
  "src-renderer/public/favicon.png": appIcon(64),
};
for (const [name, bytes] of Object.entries(outputs)) {
  fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  fs.writeFileSync(path.join(root, name), bytes);
  process.stdout.write(`wrote ${name} (${bytes.length} bytes)\n`);
}

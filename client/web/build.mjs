// Build the browser client into OUT (npm run build: ../webdist, shipped in the Python package).
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const out = process.argv[2] ?? "../webdist";
fs.mkdirSync(out, { recursive: true });
await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  outfile: path.join(out, "app.js"),
  legalComments: "none",
  logLevel: "warning",
});
await build({
  entryPoints: ["src/style.css"],
  bundle: true,
  minify: true,
  outfile: path.join(out, "app.css"),
  logLevel: "warning",
});
fs.copyFileSync("src/index.html", path.join(out, "index.html"));
// The rules are not built here: the server serves them (client/webfiles.py), from the rule book.
for (const lang of ["en", "it"]) fs.rmSync(path.join(out, `rules.${lang}.md`), { force: true });

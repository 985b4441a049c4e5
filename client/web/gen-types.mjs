// Protocol types for the browser client, generated from docs/protocol.schema.json:
//   node gen-types.mjs SCHEMA OUT.ts      (npm run types)
import fs from "node:fs";

const [schemaPath, outPath] = process.argv.slice(2);
const defs = JSON.parse(fs.readFileSync(schemaPath, "utf8")).$defs;

function type(s) {
  if (s.$ref) return s.$ref.split("/").pop();
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (s.anyOf || s.oneOf) return (s.anyOf || s.oneOf).map(type).join(" | ");
  switch (s.type) {
    case "integer":
    case "number":
      return "number";
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return s.items ? `Array<${type(s.items)}>` : "unknown[]";
    case "object":
      if (s.properties) return inline(s);
      return s.additionalProperties && s.additionalProperties !== true
        ? `{ [key: string]: ${type(s.additionalProperties)} }`
        : "{ [key: string]: unknown }";
    default:
      return "unknown";
  }
}

function inline(s) {
  const required = new Set(s.required || []);
  const fields = Object.entries(s.properties).map(
    ([k, v]) => `  ${k}${required.has(k) ? "" : "?"}: ${type(v)};`,
  );
  return `{\n${fields.join("\n")}\n}`;
}

const out = ["// Generated from docs/protocol.schema.json by gen-types.mjs: do not edit.", ""];
for (const [name, s] of Object.entries(defs).sort(([a], [b]) => a.localeCompare(b))) {
  if (s.type === "object" && s.properties) out.push(`export interface ${name} ${inline(s)}`, "");
  else out.push(`export type ${name} = ${type(s)};`, "");
}
fs.writeFileSync(outPath, out.join("\n"));

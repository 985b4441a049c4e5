"""The browser client's texts as client/web/src/i18n.ts holds them, read by node."""

from __future__ import annotations

import json
import subprocess
from typing import Any

from paths import ROOT

WEB = ROOT / "client" / "web"


def page_words() -> dict[str, Any]:
    """``en`` and ``it`` (every text by key), ``errors`` (the server's refusals in
    Italian, by code) and ``options`` (each option's Italian name and meaning)."""
    script = """
const { buildSync } = require("esbuild");
const out = buildSync({ entryPoints: ["src/i18n.ts"], bundle: true, format: "cjs", write: false, platform: "node" });
const m = { exports: {} };
new Function("module", "exports", out.outputFiles[0].text)(m, m.exports);
process.stdout.write(JSON.stringify(m.exports.ALL));
"""
    done = subprocess.run(["node", "-e", script], cwd=WEB, check=True, capture_output=True, text=True, timeout=60)
    words: dict[str, Any] = json.loads(done.stdout)
    return words


def page_eval(expression: str) -> Any:
    """The value of a JavaScript ``expression`` over client/web/src/i18n.ts's exports (``m``), read by node."""
    script = """
const { buildSync } = require("esbuild");
const out = buildSync({ entryPoints: ["src/i18n.ts"], bundle: true, format: "cjs", write: false, platform: "node" });
const mod = { exports: {} };
new Function("module", "exports", out.outputFiles[0].text)(mod, mod.exports);
const m = mod.exports;
process.stdout.write(JSON.stringify(%s));
""" % expression
    done = subprocess.run(["node", "-e", script], cwd=WEB, check=True, capture_output=True, text=True, timeout=60)
    return json.loads(done.stdout)

"""The web page names the classic games as the terminal does, in the language chosen: in
Italian the `trentino` preset is "Scopone trentino" (the Italian rule book's name)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from paths import ROOT

pytestmark = pytest.mark.process

WEB = ROOT / "client" / "web"


def test_the_trentino_is_scopone_trentino_in_italian(tmp_path: Path) -> None:
    bundle = tmp_path / "i18n.mjs"
    subprocess.run([str(WEB / "node_modules" / ".bin" / "esbuild"), "src/i18n.ts", "--bundle", "--format=esm",
                    f"--outfile={bundle}", "--log-level=warning"], cwd=WEB, check=True, timeout=120)
    script = (f"import {{ gameName }} from {json.dumps(str(bundle))};"
              "console.log(JSON.stringify([gameName('trentino', 'it'), gameName('trentino', 'en'), gameName('scopa', 'it')]))")
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["Scopone trentino", "Scopone de trente", "Scopa"]

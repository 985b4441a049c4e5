"""The browser client shipped in the package (client/webdist) is what its sources build
to: a fresh esbuild build of client/web, and protocol types freshly generated from
docs/protocol.schema.json, equal the committed files; its JavaScript and CSS weigh
under 150 KB compressed; it loads nothing from outside the server."""

from __future__ import annotations

import gzip
import re
import subprocess
from pathlib import Path

from scopa.client.webfiles import web_root

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "client" / "web"


def _node(*args: str) -> None:
    subprocess.run(["node", *args], cwd=WEB, check=True, timeout=120)


def test_the_shipped_files_are_a_fresh_build(tmp_path: Path) -> None:
    _node("build.mjs", str(tmp_path))
    shipped = {p.name: p.read_bytes() for p in web_root().iterdir()}
    fresh = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert shipped.keys() == fresh.keys()
    for name in fresh:
        assert shipped[name] == fresh[name], f"client/webdist/{name} is stale: run npm run build in client/web"


def test_the_protocol_types_are_generated_from_the_schema(tmp_path: Path) -> None:
    out = tmp_path / "protocol.ts"
    _node("gen-types.mjs", str(ROOT / "docs" / "protocol.schema.json"), str(out))
    assert (WEB / "src" / "protocol.ts").read_text() == out.read_text()


def test_the_page_is_light_and_self_contained() -> None:
    files = {p.name: p.read_bytes() for p in web_root().iterdir()}
    weight = sum(len(gzip.compress(files[n], 9)) for n in ("app.js", "app.css"))
    assert weight < 150 * 1024
    page = files["index.html"].decode() + files["app.js"].decode() + files["app.css"].decode()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "fonts.googleapis" not in page and "cdn." not in page


def test_the_client_type_checks() -> None:
    """tsc --strict over the sources and the generated protocol types (npm run check)."""
    _node(str(WEB / "node_modules" / "typescript" / "bin" / "tsc"), "-p", ".")

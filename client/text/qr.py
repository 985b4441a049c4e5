"""An address as a QR code drawn with text (two rows of modules a line), for a phone's
camera: the page ``scopa web`` serves, the link of a private table's invite."""

from __future__ import annotations

import io


def qr_text(data: str) -> str:
    """``data`` as a QR code in block characters, with a quiet border of two modules."""
    import segno  # only when a code is drawn

    out = io.StringIO()
    segno.make(data, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()

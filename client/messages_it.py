"""The terminal client's Italian: every string it shows, by its English (a
``str.format`` template keeps its ``{names}``).  One home: :func:`scopa.client.i18n.tr`
reads it, and a test fails when a string given to ``tr`` is missing here."""

from __future__ import annotations

ITALIAN: dict[str, str] = {
}

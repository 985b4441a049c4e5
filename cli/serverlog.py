"""The server's log as ``scopa serve`` shows it in text: each line in the terminal's
language (the Italian of :data:`scopa.client.text.logwords.LOG_ITALIAN`, and of the
catalog's words for a reason put in, "not rated (two seats were played from one
address)"); a line without Italian stays as the server wrote it.  The JSON log is for
programs and stays English."""

from __future__ import annotations

import logging

from scopa.client.text import current_language
from scopa.client.text.catalog import catalog
from scopa.client.text.logwords import LOG_ITALIAN


class SpokenFormatter(logging.Formatter):
    """``HH:MM:SS message``, the message in the terminal's language."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(message)s", datefmt="%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        italian = LOG_ITALIAN.get(str(record.msg)) if current_language() == "it" else None
        if italian is not None:
            words = {english: it for english, it in catalog().words.values()}
            args = tuple(words.get(a, a) if isinstance(a, str) else a for a in record.args) \
                if isinstance(record.args, tuple) else record.args
            record = logging.makeLogRecord({**record.__dict__, "msg": italian, "args": args})
        return super().format(record)


def speak_the_locale() -> None:
    """The text log's lines (every handler of the root logger writing text) in the terminal's language."""
    for handler in logging.getLogger().handlers:
        if type(handler.formatter) is logging.Formatter:
            handler.setFormatter(SpokenFormatter())

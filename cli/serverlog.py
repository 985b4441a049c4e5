"""The server's log as ``scopa serve`` shows it in text: each line in the terminal's
language (:func:`scopa.client.text.log_text`: "not rated (two seats were played from one
address)" in Italian too); a line without Italian stays as the server wrote it.  Seats
and sides are counted from 1, as the clients count them.  The JSON log is for programs:
it stays English, with the server's own numbers."""

from __future__ import annotations

import logging

from scopa.client.text import log_text


class SpokenFormatter(logging.Formatter):
    """``HH:MM:SS message``, the message in the terminal's language."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(message)s", datefmt="%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        template, args = log_text(str(record.msg), record.args)
        if template != record.msg or args != record.args:
            record = logging.makeLogRecord({**record.__dict__, "msg": template, "args": args})
        return super().format(record)


def speak_the_locale() -> None:
    """The text log's lines (every handler of the root logger writing text) in the terminal's language."""
    for handler in logging.getLogger().handlers:
        if type(handler.formatter) is logging.Formatter:
            handler.setFormatter(SpokenFormatter())

"""Game record files (docs/RECORDS.md): reading one, with a readable reason when it is
not a record, and writing one; the format itself is :mod:`scopa.protocol.record`."""

from __future__ import annotations

from pathlib import Path

from scopa.protocol.record import MAX_RECORD_FILE_BYTES, Record, RecordError, dumps_record, parse_record

from ..text import tr


def load_record(path: str | Path) -> Record:
    """Read a record file; :class:`RecordError` with a readable reason if it is not one
    (also, at once, for a file over :data:`MAX_RECORD_FILE_BYTES`)."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_RECORD_FILE_BYTES + 1)
    except OSError as exc:
        raise RecordError(tr("cannot read {file}: {why}", file=str(path), why=exc.strerror or exc)) from None
    if len(data) > MAX_RECORD_FILE_BYTES:
        raise RecordError(tr("{file} is too large for a record (over {n} MiB)", file=str(path),
                             n=MAX_RECORD_FILE_BYTES // (1024 * 1024)))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(tr("{file} is not a text file", file=str(path))) from None
    return parse_record(text, str(path))


def write_record(record: Record, path: str | Path) -> None:
    Path(path).write_text(dumps_record(record), encoding="utf-8")

"""What one read of a small message costs, over TCP on 127.0.0.1: ``recv`` of up to
256 KB (what a plain ``asyncio.Protocol`` or a stream reader does for every read) against
``recv_into`` a buffer kept from one read to the next (what the server's
``asyncio.BufferedProtocol`` sessions do).

    python benchmarks/socket_reads.py [--reads N] [--size BYTES]

Prints microseconds per read; the last line is a JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import socket
import time
from collections.abc import Callable

READ_SIZES = {"recv 256 KB": 256 * 1024, "recv 64 KB": 64 * 1024}


def _per_read(sender: socket.socket, read: Callable[[], object], message: bytes, reads: int) -> float:
    spent = 0.0
    for _ in range(reads):
        sender.sendall(message)
        start = time.perf_counter()
        read()
        spent += time.perf_counter() - start
    return spent / reads * 1e6


def run(reads: int, size: int) -> dict[str, float]:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        sender = socket.create_connection(listener.getsockname())
        receiver, _ = listener.accept()
    with sender, receiver:
        message = b"x" * size
        buffer = memoryview(bytearray(64 * 1024))
        figures = {label: _per_read(sender, lambda n=n: receiver.recv(n), message, reads)
                   for label, n in READ_SIZES.items()}
        figures["recv_into a kept 64 KB buffer"] = _per_read(
            sender, lambda: bytes(buffer[:receiver.recv_into(buffer)]), message, reads)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reads", type=int, default=100_000)
    parser.add_argument("--size", type=int, default=100, help="bytes per message (default 100: a play)")
    args = parser.parse_args()
    figures = run(args.reads, args.size)
    for label, us in figures.items():
        print(f"{label:32s} {us:7.2f} µs a read")
    print(json.dumps({"size": args.size, "reads": args.reads, "us_per_read": {k: round(v, 2) for k, v in figures.items()}}))


if __name__ == "__main__":
    main()

"""Types for the parts of msgpack (which ships none) that this project uses.

Only the plain msgpack types travel on the wire (docs/PROTOCOL.md §1), so unpacking
gives ``Any``: a decoder must check what it got before trusting it.
"""

from collections.abc import Callable
from typing import Any, NamedTuple

__version__: str
version: tuple[int, int, int]

class UnpackException(Exception): ...
class BufferFull(UnpackException): ...
class OutOfData(UnpackException): ...
class FormatError(ValueError, UnpackException): ...
class StackError(ValueError, UnpackException): ...

class ExtraData(ValueError):
    unpacked: Any
    extra: bytes
    def __init__(self, unpacked: Any, extra: bytes) -> None: ...

class ExtType(NamedTuple):
    code: int
    data: bytes

class Packer:
    def __init__(
        self,
        *,
        default: Callable[[Any], Any] | None = None,
        use_single_float: bool = False,
        autoreset: bool = True,
        use_bin_type: bool = True,
        strict_types: bool = False,
        datetime: bool = False,
        unicode_errors: str | None = None,
        buf_size: int | None = None,
    ) -> None: ...
    def pack(self, obj: Any) -> bytes: ...

class Unpacker:
    def __init__(
        self,
        file_like: Any = None,
        *,
        read_size: int = 0,
        use_list: bool = True,
        raw: bool = False,
        timestamp: int = 0,
        strict_map_key: bool = True,
        object_hook: Callable[[dict[Any, Any]], Any] | None = None,
        object_pairs_hook: Callable[[list[tuple[Any, Any]]], Any] | None = None,
        list_hook: Callable[[list[Any]], Any] | None = None,
        unicode_errors: str | None = None,
        max_buffer_size: int = ...,
        ext_hook: Callable[[int, bytes], Any] = ...,
        max_str_len: int = -1,
        max_bin_len: int = -1,
        max_array_len: int = -1,
        max_map_len: int = -1,
        max_ext_len: int = -1,
    ) -> None: ...
    def feed(self, next_bytes: bytes) -> None: ...
    def unpack(self) -> Any: ...
    def __iter__(self) -> Unpacker: ...
    def __next__(self) -> Any: ...

def packb(
    o: Any,
    *,
    default: Callable[[Any], Any] | None = None,
    use_single_float: bool = False,
    use_bin_type: bool = True,
    strict_types: bool = False,
    datetime: bool = False,
    unicode_errors: str | None = None,
) -> bytes: ...
def unpackb(
    packed: bytes | bytearray | memoryview,
    *,
    use_list: bool = True,
    raw: bool = False,
    timestamp: int = 0,
    strict_map_key: bool = True,
    object_hook: Callable[[dict[Any, Any]], Any] | None = None,
    object_pairs_hook: Callable[[list[tuple[Any, Any]]], Any] | None = None,
    list_hook: Callable[[list[Any]], Any] | None = None,
    unicode_errors: str | None = None,
    ext_hook: Callable[[int, bytes], Any] = ...,
    max_str_len: int = -1,
    max_bin_len: int = -1,
    max_array_len: int = -1,
    max_map_len: int = -1,
    max_ext_len: int = -1,
) -> Any: ...

dumps = packb
loads = unpackb

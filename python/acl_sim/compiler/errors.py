"""The one exception type of the compiler: a user error with a one-line message."""
from __future__ import annotations


class CompileError(Exception):
    """Bad model, unsupported op, bad option: the CLI prints `str(e)` on one line and exits non-zero."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))

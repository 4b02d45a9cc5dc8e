"""The exceptions of tilespace: each carries the library's one-line message."""


class Error(Exception):
    """Base of every error tilespace raises."""


class InputError(Error, ValueError):
    """Bad input: a board, a shape, a blank cell, an array of the wrong shape or dtype, a board
    of the other class."""


class FileError(Error, OSError):
    """A file that cannot be read or written, or whose contents are damaged."""


class ResourceError(Error, MemoryError):
    """The work does not fit in memory."""

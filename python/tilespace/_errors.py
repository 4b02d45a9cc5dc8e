"""The exceptions of tilespace: each carries the library's one-line message, and each is also
the built-in exception a caller would catch (the extension module imports these classes once,
with PyO3's ``import_exception!``)."""


class Error(Exception):
    """Base of every error tilespace raises."""


class InputError(Error, ValueError):
    """Bad input: a board, a shape, a blank cell, an array of the wrong shape or dtype, a board
    of the other class, an argument out of range."""


class InputTypeError(InputError, TypeError):
    """An argument of the wrong type (a bool or a float where an int goes, a string where an
    array goes): a ``TypeError``, and an ``InputError`` like all bad input."""


class FileError(Error, OSError):
    """A file that cannot be read or written, or whose contents are damaged."""


class ResourceError(Error, MemoryError):
    """The work does not fit in memory (checked before anything is allocated), or its threads
    cannot be started."""

"""Bad input and bad files: one-line messages in the package's exceptions, never a crash."""

import numpy as np
import pytest

import tilespace


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    path = tmp_path_factory.mktemp("t") / "2x3.tst"
    tilespace.analyze("2x3", save_table=path)
    return tilespace.Table.open(path)


def one_line(excinfo, *words):
    message = str(excinfo.value)
    assert "\n" not in message and message, message
    for w in words:
        assert w in message, message
    assert isinstance(excinfo.value, tilespace.Error)


@pytest.mark.parametrize(
    "boards, words",
    [
        (np.zeros((2, 5), dtype=np.int8), ["(N, 6)", "(2, 5)"]),
        (np.zeros((2, 6), dtype=np.float64), ["integers", "float64"]),
        (np.zeros((2, 2, 6), dtype=np.int8), ["3-D", "(N, 2, 3)"]),
        (np.array([[1, 2, 3, 4, 5, 0], [1, 2, 3, 3, 5, 0]]), ["row 1", "tile 3 appears 2 times", "tile 4 is missing"]),
        (np.array([[1, 2, 3, 4, 5, -1]]), ["tile -1"]),
        (np.array([[1, 2, 3, 4, 5, 9]]), ["tile 9"]),
        (np.array([[1, 2, 3, 4, 5, 0], [2, 1, 3, 4, 5, 0]]), ["row 1", "cannot reach the goal"]),
        ([[1, 2, 3, 4, 5, 300000]], ["300000"]),
        ("1 2 3", ["integers"]),
    ],
)
def test_bad_boards_are_value_errors(table, boards, words):
    with pytest.raises(ValueError) as e:
        table.distance(boards)
    one_line(e, *words)
    assert isinstance(e.value, tilespace.InputError)


def test_bad_arguments_are_value_errors(table):
    for call, words in [
        (lambda: tilespace.analyze("3y3"), ["3y3"]),
        (lambda: tilespace.analyze("2x3", metric="fast"), ["not a metric"]),
        (lambda: tilespace.analyze("2x3", blank=6), ["outside the 2x3 board"]),
        (lambda: tilespace.analyze("2x3", blank="9,9"), ["outside the 2x3 board"]),
        (lambda: tilespace.analyze("2x3", threads=0), ["threads"]),
        (lambda: tilespace.analyze("2x3", threads=-1), ["threads must be from 1"]),
        (lambda: tilespace.analyze("2x2", threads=5000), ["threads must be from 1", "8 a core"]),
        (lambda: table.sample(1, 1, depth=2**40), ["depth must be from 0 to 21"]),
        (lambda: tilespace.random_boards("2x3", 1, 2**64), ["seed"]),
        (lambda: tilespace.random_boards("2x3", -1, 1), ["non-negative"]),
        (lambda: tilespace.random_boards("2x3", 1, -1), ["seed"]),
        (lambda: tilespace.solvable(np.zeros((1, 6)), "2x3"), ["integers"]),
        (lambda: table.sample(1, 1, depth=99), ["depth must be from 0 to 21"]),
        (lambda: table.sample(1, 1, depth=-1), ["depth"]),
        (lambda: table.solve(np.array([[1, 2, 3, 4, 5, 0]] * 2)), ["one board"]),
        (lambda: tilespace.count("0x3"), ["0x3"]),
    ]:
        with pytest.raises(ValueError) as e:
            call()
        one_line(e, *words)


def test_bad_files_are_os_errors(tmp_path, table):
    with pytest.raises(OSError) as e:
        tilespace.Table.open(tmp_path / "none.tst")
    one_line(e, "none.tst")
    damaged = tmp_path / "damaged.tst"
    data = bytearray(open(table.path, "rb").read())
    data[-1] ^= 0x10
    damaged.write_bytes(bytes(data))
    with pytest.raises(OSError) as e:
        tilespace.Table.open(damaged)
    one_line(e, "damaged.tst")
    (tmp_path / "short.tst").write_bytes(bytes(data[:70]))
    with pytest.raises(tilespace.FileError):
        tilespace.Table.open(tmp_path / "short.tst")
    with pytest.raises(tilespace.FileError) as e:
        tilespace.read_results(tmp_path)
    one_line(e, "summary.csv")


def test_too_large_is_a_memory_error():
    with pytest.raises(MemoryError) as e:
        tilespace.analyze("5x5")
    one_line(e)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda t: tilespace.random_boards("3x3", 10, 1, blank=True), ["blank", "bool"]),
        (lambda t: tilespace.random_boards("3x3", True, 1), ["n must be an int", "bool"]),
        (lambda t: tilespace.random_boards("3x3", 1.5, 1), ["n must be an int", "float"]),
        (lambda t: tilespace.analyze("2x2", threads=2.0), ["threads must be an int"]),
        (lambda t: t.sample(1, seed=True), ["seed must be an int"]),
        (lambda t: t.sample(1, rng=5), ["numpy.random.Generator"]),
        (lambda t: t.distance("1 2 3 4 5 0"), ["array of integers", "str"]),
    ],
)
def test_wrong_types_are_type_errors(table, call, words):
    with pytest.raises(TypeError) as e:
        call(table)
    one_line(e, *words)
    assert isinstance(e.value, tilespace.InputError)


def test_an_empty_list_is_no_boards(table):
    found = table.distance([])
    assert found.shape == (0,) and found.dtype == np.uint8
    assert tilespace.solvable(np.zeros((0, 6), dtype=np.int64), "2x3").shape == (0,)


def test_sizes_past_memory_are_refused_before_allocating(table):
    # Each would have needed terabytes: refused at once with what it needs, never an abort of
    # the interpreter (10**13 boards aborted it with "memory allocation ... failed").
    for call, words in [
        (lambda: tilespace.random_boards("3x3", 10**13, 1), ["10000000000000 random 3x3 boards"]),
        (lambda: table.sample(2**40, 1), ["a sample of 1099511627776 2x3 boards"]),
    ]:
        with pytest.raises(MemoryError) as e:
            call()
        one_line(e, "needs about")
        assert isinstance(e.value, tilespace.ResourceError)


def test_both_seed_and_rng_are_refused(table):
    with pytest.raises(ValueError) as e:
        table.sample(1, seed=1, rng=np.random.default_rng(1))
    one_line(e, "not both")

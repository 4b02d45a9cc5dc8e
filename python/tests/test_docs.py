"""The package's docstrings: numpydoc sections on every public call, and their examples run."""

import doctest
import inspect
import os

import tilespace
import tilespace.results


def public_calls():
    for name in tilespace.__all__:
        value = getattr(tilespace, name)
        if inspect.isfunction(value):
            yield name, value
        elif inspect.isclass(value) and not issubclass(value, BaseException):
            for method, member in vars(value).items():
                if not method.startswith("_") and callable(getattr(member, "__func__", member)):
                    yield f"{name}.{method}", getattr(member, "__func__", member)


def test_every_public_call_has_numpydoc_sections():
    missing = []
    for name, call in public_calls():
        doc = inspect.getdoc(call) or ""
        for section in ("Parameters\n----------", "Returns\n-------"):
            if section not in doc:
                missing.append(f"{name}: {section.splitlines()[0]}")
    assert not missing, missing


def test_the_docstring_examples_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    failed = 0
    for module in (tilespace, tilespace.results):
        finder = doctest.DocTestFinder()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        for test in finder.find(module, globs={"tilespace": tilespace}):
            # read_results' example reads the repository's committed reports.
            if "docs/results" in "".join(e.source for e in test.examples):
                monkeypatch.chdir(root)
            runner.run(test)
            monkeypatch.chdir(tmp_path)
        failed += runner.failures
        assert runner.tries > 0 or module is not tilespace
    assert failed == 0

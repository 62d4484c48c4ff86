"""The long forms are opt-in: a test marked ``slow`` is skipped unless ``TETRAD_SLOW=1``
(read in tests/fixtures/slow.py only) and, when it runs, has the long timeout."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

TESTS = """
import pytest

@pytest.mark.slow
def test_long_form(request):
    assert request.node.get_closest_marker("timeout").args == (3600,)

@pytest.mark.parametrize("n", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_cases(n):
    pass
"""


@pytest.mark.parametrize(("value", "runs"), [("1", True), ("", False), ("0", False)])
def test_slow_tests_run_only_when_asked(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, value: str, runs: bool
) -> None:
    monkeypatch.setenv("TETRAD_SLOW", value)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytester.makeini("[pytest]\nmarkers =\n    slow: long\n    timeout: limit\n")
    pytester.makepyfile(TESTS)
    result = pytester.runpytest_subprocess(
        "-p", "tests.fixtures.slow", "-p", "no:cacheprovider", "-rs"
    )
    if runs:
        result.assert_outcomes(passed=3)
    else:
        result.assert_outcomes(passed=1, skipped=2)
        result.stdout.fnmatch_lines(["SKIPPED*a long form: set TETRAD_SLOW=1*"])

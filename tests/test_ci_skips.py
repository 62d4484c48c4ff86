"""Under CI=true a browser test that skips (no Chromium) fails; other skips stay skips."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

TESTS = """
import pytest

pytestmark = pytest.mark.filterwarnings("ignore")

@pytest.mark.browser
@pytest.mark.skipif(True, reason="no Chromium here")
def test_in_the_browser():
    pass

@pytest.mark.browser
def test_in_the_browser_skipping_itself():
    pytest.skip("no Chromium here either")

@pytest.mark.skipif(True, reason="set TETRAD_SLOW=1")
def test_slow_form():
    pass
"""


@pytest.mark.parametrize("ci", ["true", ""])
def test_a_skipped_browser_test_fails_in_ci(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, ci: str
) -> None:
    monkeypatch.setenv("CI", ci)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # none of ours needed
    pytester.makeini("[pytest]\nmarkers =\n    browser: drives Chromium\n")
    pytester.makepyfile(TESTS)
    result = pytester.runpytest("-p", "tests.fixtures.ci", "-p", "no:cacheprovider")
    if ci:
        result.assert_outcomes(errors=1, failed=1, skipped=1)
        result.stdout.fnmatch_lines(["*skipped under CI=true, where it must run*no Chromium*"])
    else:
        result.assert_outcomes(skipped=3)

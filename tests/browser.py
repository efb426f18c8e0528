"""A real headless Chromium for the tests of self-contained pages (report.html, replays).

Debian's chromium and chromium-driver (``.ci/run`` installs them); without them the tests that
use ``needs_chromium`` are skipped.
"""

from __future__ import annotations

import shutil
from contextlib import contextmanager
from typing import Iterator

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                    reason="needs Debian's chromium and chromium-driver (.ci/run installs them)")


@contextmanager
def headless_chromium(width: int = 1200, height: int = 900) -> Iterator:
    """A selenium driver of a headless Chromium that logs the page's console, quit afterwards."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--disable-background-networking"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def fetched_resources(driver) -> list[str]:
    """Every resource the page loaded that was not inside it (a data URI)."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map(r => r.name).filter(n => !n.startsWith('data:'));")


def console_problems(driver) -> list[dict]:
    return [entry for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]

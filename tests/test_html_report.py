"""report.html: built from sections, self-contained, written by every run and by `plsim report
DIR --html`, and checked in a real headless Chromium (every image decodes, no console error)."""

import base64
import shutil

import polars as pl
import pytest
from click.testing import CliRunner

from browser import console_problems, fetched_resources, headless_chromium, needs_chromium
from plsim.cli import main
from plsim.html import Frame, Image, Section, Text, html_report
from plsim.html.document import format_cell

ONE_PIXEL_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)


def test_sections_render_text_tables_and_embedded_images(tmp_path):
    png = tmp_path / "dot.png"
    png.write_bytes(ONE_PIXEL_PNG)
    frame = pl.DataFrame({"strategy": ["a", "b<script>"], "win_rate": [0.25, None], "games": [1200, 3]})
    page = html_report(
        "A & B", {"seed": 3, "rules": {"wrath": {"threshold": 13}}}, "plsim run --seed 3",
        [Section("Results", [Text("first\n\nsecond"), Frame(frame, "rates", percent=("win_rate",)), Image(png, "dot")])],
    )
    assert "<title>A &amp; B</title>" in page
    assert "<p>first</p><p>second</p>" in page
    assert "<td>b&lt;script&gt;</td>" in page and "<script>" not in page
    assert '<td class="num">25.0%</td>' in page and '<td class="num">–</td>' in page
    assert '<td class="num">1,200</td>' in page
    assert f'src="data:image/png;base64,{base64.b64encode(ONE_PIXEL_PNG).decode()}"' in page
    assert "<pre><code>plsim run --seed 3</code></pre>" in page
    assert "<th>wrath.threshold</th><td>13</td>" in page  # nested settings folded, dotted keys
    assert 'href="#results"' in page


@pytest.mark.parametrize(("value", "percent", "text"), [
    (None, False, "–"), (0.123456, False, "0.1235"), (0.123456, True, "12.3%"), (27.14, False, "27.14"),
    (123456.7, False, "123,457"), (True, False, "yes"), (12345, False, "12,345"), ("x", False, "x"),
])
def test_cells_are_formatted_for_reading(value, percent, text):
    assert format_cell(value, percent) == text


def test_every_run_writes_report_html_and_plsim_report_rebuilds_it(real_run):
    page = real_run / "report.html"
    assert page.exists()
    first = page.read_text()
    page.unlink()
    result = CliRunner().invoke(main, ["report", str(real_run), "--html"])
    assert result.exit_code == 0, result.output
    assert f"report: {page}" in result.output
    assert page.read_text() == first  # the bootstrap seed is fixed: the same page again
    assert first.count('src="data:image/png;base64,') == 6  # five report plots and cards.png
    for needed in ("Win rates", "Game health", "Seats", "Wrath of God", "Victory points", "Cards", "Settings",
                   "seat_spread", "standard-2p", "--seed 5"):
        assert needed in first, needed


def test_plsim_report_no_html_leaves_no_page(real_run, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(real_run, copy)
    (copy / "report.html").unlink()
    result = CliRunner().invoke(main, ["report", str(copy), "--no-html"])
    assert result.exit_code == 0, result.output
    assert not (copy / "report.html").exists()


@needs_chromium
def test_report_opens_in_headless_chromium_with_every_image_decoded_and_no_console_error(real_run, tmp_path):
    with headless_chromium(1200, 900) as driver:
        driver.get((real_run / "report.html").resolve().as_uri())
        height = driver.execute_script("return document.body.scrollHeight")
        driver.set_window_size(1200, min(height + 50, 16000))
        shot = tmp_path / "report.png"
        assert driver.save_screenshot(str(shot))
        images = driver.execute_script(
            "return Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.naturalHeight]);")
        problems = console_problems(driver)
        title = driver.title
        failed_resources = fetched_resources(driver)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 50_000
    assert len(images) == 6
    assert all(complete and width > 0 and height > 0 for complete, width, height in images), images
    assert problems == []
    assert failed_resources == []  # nothing fetched: every image is a data URI
    assert title.startswith("plsim run: standard-2p, 6 games")

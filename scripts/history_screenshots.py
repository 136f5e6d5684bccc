"""Screenshots of what a teacher's classes say about each question, in Debian's chromium: the 6-class history of
scripts/class_history.py, opened by the teacher's link, the classes listed, at 1280 × 720 and at 390 px, in English and
Chinese (the flag, the chart, the table).

Usage: ``python scripts/history_screenshots.py [folder]`` (default /tmp/history-shots). Run it under
``flock /tmp/attention-browser.lock`` where several agents share a machine.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from classroom import store  # noqa: E402
from scripts.browser import browser, serve  # noqa: E402
from scripts.class_history import make_history  # noqa: E402

WIDE = {"viewport": {"width": 1280, "height": 720}}
NARROW = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
TITLE = {"en": "What your classes say about each question", "zh": "你的各个班级对每道题说了什么"}


def history_database() -> tuple[str, str, str]:
    """A new SQLite file holding the 6-class history: (its path, the teacher key, the newest class's code)."""
    path = f"{tempfile.mkdtemp(prefix='class-history-')}/live-class.sqlite3"
    engine = store.connect(f"sqlite:///{path}")
    key = make_history(engine)
    return path, key, store.teacher_classes(engine, key)[0].code


def open_statistics(page, url: str, code: str, key: str, lang: str) -> None:
    """The teacher's link of the newest class (ended: the classes stay listed), then "Show your classes"."""
    page.goto(f"{url}/live?join={code}&teacher={key}&lang={lang}")
    page.locator(".st-key-live-classes").wait_for(timeout=30000)
    page.locator(".st-key-live-classes label").first.click()
    page.get_by_text(TITLE[lang]).wait_for(timeout=30000)
    page.locator(".st-key-live-history-chart .js-plotly-plot").wait_for(timeout=30000)


def shoot(page, path: Path, viewport: dict, lang: str) -> None:
    """The statistics' title at the top of the viewport, and the whole section in a viewport as tall as it needs."""
    page.set_viewport_size(viewport["viewport"])
    page.wait_for_timeout(1500)  # the layout and the chart settle at the new width
    title = page.get_by_text(TITLE[lang])
    title.evaluate("element => element.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)
    page.screenshot(path=str(path))
    page.set_viewport_size({"width": viewport["viewport"]["width"], "height": 2400})
    page.wait_for_timeout(1500)
    title.evaluate("element => element.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)
    page.screenshot(path=str(path.with_name(path.stem + "-tall.png")))
    print(path)


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/history-shots")
    folder.mkdir(parents=True, exist_ok=True)
    path, key, code = history_database()
    with serve(env={"ATTENTION_CLASS_FILE": path}) as url, browser() as chromium:
        for lang in ("en", "zh"):
            page = chromium.new_context(**WIDE).new_page()
            open_statistics(page, url, code, key, lang)
            shoot(page, folder / f"history-{lang}-1280x720.png", WIDE, lang)
            shoot(page, folder / f"history-{lang}-390.png", NARROW, lang)
            page.context.close()


if __name__ == "__main__":
    main()

"""make screenshots: PNGs of the walkthrough's steps in docs/, taken in Debian's chromium."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.browser import browser, serve  # noqa: E402

DOCS = ROOT / "docs"
SHOTS = {
    "walkthrough-1-tokens": {"step": 1},
    "walkthrough-2-qkv": {"step": 2},
    "walkthrough-3-raw-scores": {"step": 3, "text": "the cat sat on the mat"},
    "walkthrough-4-scaled": {"step": 4, "text": "the cat sat on the mat"},
    "walkthrough-5-softmax": {"step": 5, "text": "the cat sat on the mat", "focus": 2},
    "walkthrough-6-output": {"step": 6, "text": "the cat sat on the mat"},
    "walkthrough-7-heads": {"step": 7, "text": "the cat sat on the mat", "heads": 2},
    "walkthrough-textbook": {"step": 5, "example": 1},
    "walkthrough-chinese": {"step": 5, "text": "她正在吃一个绿色的苹果"},
}


def capture(chromium, url: str, path: Path, width: int = 1400) -> None:
    """Load ``url``, wait for its charts, and save the whole main area (not only the first screen)."""
    context = chromium.new_context(viewport={"width": width, "height": 900}, device_scale_factor=1)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("[data-testid=stMain]", timeout=30000)
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot .main-svg').length > 0", timeout=30000)
    page.wait_for_timeout(800)
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": width, "height": min(int(height) + 40, 6000)})
    page.wait_for_timeout(800)
    page.screenshot(path=str(path))
    context.close()


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    with serve() as url, browser() as chromium:
        for name, params in SHOTS.items():
            path = DOCS / f"{name}.png"
            capture(chromium, f"{url}/?{urlencode(params)}", path)
            print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()

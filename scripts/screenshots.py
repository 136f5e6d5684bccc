"""make screenshots: PNGs of the walkthrough's steps in docs/, taken in Debian's chromium."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.browser import browser, serve  # noqa: E402

DOCS = ROOT / "docs"
SHOTS = {  # name: (page path, URL parameters, viewport width, fixed height or None for the whole page)
    "walkthrough-1-tokens": {"step": 1},
    "walkthrough-2-qkv": {"step": 2},
    "walkthrough-3-raw-scores": {"step": 3, "text": "the cat sat on the mat"},
    "walkthrough-4-scaled": {"step": 4, "text": "the cat sat on the mat"},
    "walkthrough-5-softmax": {"step": 5, "text": "the cat sat on the mat", "focus": 2},
    "walkthrough-6-output": {"step": 6, "text": "the cat sat on the mat"},
    "walkthrough-7-heads": {"step": 7, "text": "the cat sat on the mat", "heads": 2},
    "walkthrough-textbook": {"step": 5, "example": 1},
    "walkthrough-chinese": {"step": 5, "text": "她正在吃一个绿色的苹果", "lang": "zh"},
    "walkthrough-pretrained": {"step": 5, "weights": 1, "layer": 1, "head": 3, "text": "the cat sat on the mat"},
}
PAGES = {
    "why-qkv": ("why-qkv", {"text": "the cat sat on the mat"}),
    "types-modes": ("types", {"text": "the cat sat on the mat", "section": 1}),
    "cosine": ("cosine", {"text": "the cat sat on the mat"}),
    "scaling-lab": ("scaling-lab", {}),
    "multi-head": ("multi-head", {"text": "the cat sat on the mat", "heads": 4, "d_model": 16}),
    "self-vs-cross": ("self-vs-cross", {}),
    "hierarchical": ("hierarchical", {}),
    "rnn-vs-attention": ("rnn-vs-attention", {"text": "the cat sat on the mat", "step": 3}),
    "real-model": ("real-model", {"text": "The animal didn't cross the street because it was too tired.", "layer": 1, "head": 3}),
}
FIXED = {  # name: (URL parameters, width, height): what a projector or a phone shows, without scrolling the page
    "presenter-1280x720": ({"present": 1, "step": 5, "text": "the cat sat on the red mat today"}, 1280, 720),
    "presenter-1280x720-zh": ({"present": 1, "step": 2, "lang": "zh", "text": "她正在吃一个绿色的苹果"}, 1280, 720),
    "phone-390": ({"step": 5, "text": "the cat sat on the mat"}, 390, 844),
}


def capture(chromium, url: str, path: Path, width: int = 1400, height: int | None = None) -> None:
    """Load ``url``, wait for its charts, and save the whole main area (or exactly ``height`` pixels when given)."""
    context = chromium.new_context(viewport={"width": width, "height": height or 900}, device_scale_factor=1)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("[data-testid=stMain]", timeout=30000)
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot .main-svg').length > 0", timeout=30000)
    page.wait_for_timeout(800)
    if height is None:
        full = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
        page.set_viewport_size({"width": width, "height": min(int(full) + 40, 6000)})
        page.wait_for_timeout(800)
    page.screenshot(path=str(path))
    context.close()


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    with serve() as url, browser() as chromium:
        for name, params in SHOTS.items():
            capture(chromium, f"{url}/?{urlencode(params)}", DOCS / f"{name}.png")
            print(f"docs/{name}.png")
        for name, (page, params) in PAGES.items():
            capture(chromium, f"{url}/{page}?{urlencode(params)}", DOCS / f"{name}.png")
            print(f"docs/{name}.png")
        for name, (params, width, height) in FIXED.items():
            capture(chromium, f"{url}/?{urlencode(params)}", DOCS / f"{name}.png", width, height)
            print(f"docs/{name}.png")


if __name__ == "__main__":
    main()

"""make screenshots: PNGs of the walkthrough's steps in docs/, taken in Debian's chromium."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.browser import browser, serve  # noqa: E402
from views.shell.registry import PAGES  # noqa: E402

DOCS = ROOT / "docs"
SENTENCE = "the cat sat on the mat"
SHOTS = {  # the walkthrough's steps and walks (docs/<name>.png), by URL parameters
    "walkthrough-1-tokens": {"step": 1},
    "walkthrough-2-qkv": {"step": 2},
    "walkthrough-3-raw-scores": {"step": 3, "text": SENTENCE},
    "walkthrough-4-scaled": {"step": 4, "text": SENTENCE},
    "walkthrough-5-softmax": {"step": 5, "text": SENTENCE, "focus": 2},
    "walkthrough-6-output": {"step": 6, "text": SENTENCE},
    "walkthrough-7-heads": {"step": 7, "text": SENTENCE, "heads": 2},
    "walkthrough-textbook": {"step": 5, "walk": "textbook"},
    "walkthrough-chinese": {"step": 5, "text": "她正在吃一个绿色的苹果", "lang": "zh"},
    "walkthrough-pretrained": {"step": 5, "walk": "pretrained", "layer": 1, "head": 3, "text": SENTENCE},
}
PAGE_SHOTS = {  # every other page of the registry, with the parameters that show it best (docs/<file name>.png)
    "types": ("types-modes", {"text": SENTENCE, "section": "modes"}),
    "scaling": ("scaling-lab", {}),
    "multihead": ("multi-head", {"text": SENTENCE, "heads": 4, "d_model": 16}),
    "cross": ("self-vs-cross", {}),
    "hierarchy": ("hierarchical", {}),
    "rnn": ("rnn-vs-attention", {"text": SENTENCE, "step": 3}),
    "learn": ("watch-it-learn", {"step": 660}),
    "positions": ("positions-and-scale", {"text": "the dog bit the man"}),
    "real": ("real-model", {"text": "The animal didn't cross the street because it was too tired.", "layer": 1, "head": 3}),
}
FIXED = {  # name: (URL parameters, width, height): what a projector or a phone shows, without scrolling the page
    "presenter-1280x720": ({"present": 1, "step": 5, "text": "the cat sat on the red mat today"}, 1280, 720),
    "presenter-1280x720-zh": ({"present": 1, "step": 2, "lang": "zh", "text": "她正在吃一个绿色的苹果"}, 1280, 720),
    "phone-390": ({"step": 5, "text": SENTENCE}, 390, 844),
}


# The page is drawn: its title, or where the page has the step component (the walkthrough, the lesson on a projector, the
# images' steps; presenter mode shows no title), the component with its step (or its message) in its shadow root.
READY_JS = """() => {
  const main = document.querySelector('[data-testid=stMain]'), h1 = main && main.querySelector('h1');
  const host = main && main.querySelector('[data-testid=stBidiComponentIsolated]');
  if (host) return !!(host.shadowRoot && host.shadowRoot.querySelector('.steps .main section.step, .steps > .note, .steps .top .note'));
  return !!(h1 && h1.getBoundingClientRect().height > 0);
}"""


def capture(chromium, url: str, path: Path, width: int = 1400, height: int | None = None) -> None:
    """Load ``url``, wait for its charts, and save the whole main area (or exactly ``height`` pixels when given)."""
    context = chromium.new_context(viewport={"width": width, "height": height or 900}, device_scale_factor=1)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("[data-testid=stMain]", timeout=30000)
    page.wait_for_function(READY_JS, timeout=30000)
    page.wait_for_timeout(1500)  # then every chart the page has (the lesson path has none) must be drawn
    page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot')].every(p => p.querySelector('.main-svg'))",
                           timeout=30000)
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
        for page in PAGES[1:]:
            name, params = PAGE_SHOTS.get(page.id, (page.path, {"text": SENTENCE}))
            capture(chromium, f"{url}/{page.path}?{urlencode(params)}", DOCS / f"{name}.png")
            print(f"docs/{name}.png")
        for name, (params, width, height) in FIXED.items():
            capture(chromium, f"{url}/?{urlencode(params)}", DOCS / f"{name}.png", width, height)
            print(f"docs/{name}.png")


if __name__ == "__main__":
    main()

"""Screenshots of the real-model page's "A head over a corpus" section (and the heads section's summary beside it) in
Debian's chromium, English and Chinese, at 1280 x 720 (a laptop or a projector) and 390 px wide (a phone): PNGs in
tests/screenshots/corpus/ (``python scripts/corpus_screenshots.py``; wrap in ``flock /tmp/browser.lock`` on a shared machine)."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.browser import browser, serve  # noqa: E402
from scripts.screenshots import capture  # noqa: E402

OUT = ROOT / "tests" / "screenshots" / "corpus"
SENTENCE = "The animal didn't cross the street because it was too tired."
CORPUS = {"text": SENTENCE, "section": "corpus", "layer": 3, "head": 10, "measure": "same_word", "versus": "cls"}
SHOTS = {  # name: (URL parameters, width, height or None for the whole page)
    "corpus-1280x720-en": (CORPUS, 1280, 720),
    "corpus-1280-full-en": (CORPUS, 1280, None),
    "corpus-1280-full-zh": (CORPUS | {"lang": "zh"}, 1280, None),
    "corpus-390-full-en": (CORPUS, 390, None),
    "corpus-390-full-zh": (CORPUS | {"lang": "zh"}, 390, None),
    "corpus-presenter-1280x720-en": (CORPUS | {"present": 1}, 1280, 720),
    "corpus-presenter-1280x720-zh": (CORPUS | {"present": 1, "lang": "zh"}, 1280, 720),
    "heads-summary-1280-full-en": ({"text": SENTENCE, "layer": 2, "head": 9}, 1280, None),
    "heads-summary-390-full-zh": ({"text": SENTENCE, "layer": 2, "head": 9, "lang": "zh"}, 390, None),
}


PASTE = ("<script>alert('x')</script> is shown as text.\nThe cat sat on the mat, and the cat slept.\nI love tea 😀.\n"
         + "A very long line of words " * 14 + "\n🙂🙂\n" + "\n".join(f"Sentence number {i} is here." for i in range(210)))
PASTED = {  # name: (language, width): the section after pasting PASTE (too many sentences, one too long, emoji, a script)
    "corpus-pasted-1280-full-en": ("en", 1280),
    "corpus-pasted-390-full-zh": ("zh", 390),
}


def pasted(chromium, url: str, lang: str, width: int, path: Path) -> None:
    """Open the section with "Your sentences", paste PASTE, score it, and save the whole page."""
    context = chromium.new_context(viewport={"width": width, "height": 900}, device_scale_factor=1)
    page = context.new_page()
    page.goto(f"{url}/real-model?{urlencode(CORPUS | {'corpus': 'pasted', 'lang': lang})}")
    box = page.locator(".st-key-real-corpus-text textarea")
    box.wait_for(timeout=60000)
    box.fill(PASTE)
    page.locator("[data-testid=stFormSubmitButton] button").click()
    page.wait_for_function("() => [...document.querySelectorAll('caption')].some(c => /200/.test(c.textContent))", timeout=60000)
    page.wait_for_timeout(2000)
    full = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": width, "height": min(int(full) + 40, 8000)})
    page.wait_for_timeout(2500)
    page.screenshot(path=str(path))
    context.close()


def main(names: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with serve() as url, browser() as chromium:
        for name, (params, width, height) in SHOTS.items():
            if names and name not in names:
                continue
            capture(chromium, f"{url}/real-model?{urlencode(params)}", OUT / f"{name}.png", width, height)
            print(OUT / f"{name}.png")
        for name, (lang, width) in PASTED.items():
            if names and name not in names:
                continue
            pasted(chromium, url, lang, width, OUT / f"{name}.png")
            print(OUT / f"{name}.png")


if __name__ == "__main__":
    main(sys.argv[1:])

"""axe-core (WCAG 2.2 A and AA rules) over every page and section of the registry, on a screen and in presenter mode, in
English and Chinese, in Debian's chromium. Prints a table of violations by impact per view, and the serious and
critical ones with the elements they name.

    .venv/bin/python scripts/axe_scan.py              # every view (about 4 minutes)
    .venv/bin/python scripts/axe_scan.py --only cosine
    .venv/bin/python scripts/cpu_load.py -- .venv/bin/python scripts/axe_scan.py --rounds 10 --phone   # under load

tests/test_browser_accessibility.py runs the same scan (``scan``) and fails on the first serious or critical violation.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from axe_playwright_python.sync_playwright import Axe  # noqa: E402

from views.shell.params import Choice  # noqa: E402
from views.shell.registry import PAGES  # noqa: E402

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
IMPACTS = ("critical", "serious", "moderate", "minor")
LAYOUTS = {"screen": {}, "presenter": {"present": 1}}
SCREENS = {"projector": "a projector, 1280 x 720", "phone": "a phone, 390 x 844"}
AXE = Axe()  # axe-core 4.x as the pinned axe-playwright-python ships it (axe.min.js in the package)


def views(only: str | None = None) -> list[tuple[str, str, str, str]]:
    """(page path, section, language, layout) for every section of every page; ``only`` keeps one page's."""
    found = []
    for page in PAGES:
        if only and only not in (page.id, page.path):
            continue
        section = next((p for p in page.params if p.name == "section" and isinstance(p, Choice)), None)
        for name in section.options if section else ("",):
            found += [(page.path, name, lang, layout) for lang in ("en", "zh") for layout in LAYOUTS]
    return found


def address(path: str, section: str, lang: str, layout: str) -> str:
    return f"/{path}?{urlencode({'lang': lang} | ({'section': section} if section else {}) | LAYOUTS[layout])}"


def violations(page) -> list[dict]:
    """axe-core's violations on the page as drawn now: id, impact, help, the elements. A chart not drawn yet (charts are
    drawn near the screen) is checked as its box: a named figure with its table of numbers, as a screen reader meets it."""
    # Not inside a chart's SVG (half of axe's time on a page of heatmaps; axe measures no contrast in SVG text): its box
    # (a named figure), toolbar and table of numbers are checked.
    results = AXE.run(page, context={"exclude": [[".main-svg"]]},
                      options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [target(n["target"]) for n in v["nodes"]],
             "why": [f"{n['html'][:160]} :: {n.get('failureSummary', '')[:300]}" for n in v["nodes"]]}
            for v in results.response["violations"]]


DUPLICATE_IDS_JS = """() => { const seen = new Map();
  for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) || 0) + 1);
  return [...seen].filter(([id, n]) => id && n > 1).map(([id, n]) => `${id} (${n}x)`); }"""


def duplicate_ids(page) -> list[str]:
    """Ids given to two elements or more (axe-core 4.x no longer checks them: WCAG 2.2 made 4.1.1 obsolete). Streamlit
    makes a heading's anchor from its words, and Chinese words drop out: "45 分钟的一堂课" and "45 分钟的路线" are both #45,
    and a link to one may land on the other."""
    return page.evaluate(DUPLICATE_IDS_JS)


def target(found: object) -> str:
    """axe-core's selector of an element: a list of selectors, one per shadow root on the way in (the step component is
    drawn in a shadow root: ``[["#host", ".steps td"]]``), written ``host >>> inside``."""
    if isinstance(found, list):
        return " ".join(" >>> ".join(map(str, part)) if isinstance(part, list) else str(part) for part in found)
    return str(found)


# Text a student reads or hears that is English on a Chinese page: every attribute a screen reader speaks, and every visible
# text outside formulas, code, the sentence's own tokens (chips, chart ticks, the numbers' tables) and boxes typed in.
ENGLISH_JS = """() => {
  const latin = /[A-Za-z]{3,}/, found = new Set();
  const own = ".katex, math, code, pre, .token-chips, .han, .xtick, .ytick, .legendtext, .annotation, div.attention-numbers, input, textarea";
  // The page and every open shadow root in it (the step component draws in one): its elements and its text.
  const roots = [document];
  for (let i = 0; i < roots.length; i++) for (const el of roots[i].querySelectorAll("*")) if (el.shadowRoot) roots.push(el.shadowRoot);
  for (const root of roots) for (const el of root.querySelectorAll(root === document ? "body *" : "*")) {
    for (const name of ["aria-label", "title", "placeholder", "alt", "aria-roledescription", "data-title"]) {
      const value = el.getAttribute(name);
      if (value && latin.test(value) && !el.closest(own)) found.add(`${name}=${value}`);
    }
  }
  for (const root of roots) {
    const walker = document.createTreeWalker(root === document ? document.body : root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const text = walker.currentNode.textContent.trim(), el = walker.currentNode.parentElement;
      // Not read: hidden from screen readers, or inside a button or link named by its aria-label.
      if (!text || !latin.test(text) || !el || el.closest(own)) continue;
      if (el.closest("script, style, [aria-hidden=true], button[aria-label], a[aria-label]")) continue;
      if (!el.checkVisibility || el.checkVisibility({visibilityProperty: true})) found.add(`text=${text}`);
    }
  }
  return [...found];
}"""


LATIN = re.compile(r"[A-Za-z][A-Za-z_]{2,}")


@functools.cache
def english_allowed() -> frozenset[str]:
    """Latin words a Chinese page may show: those the Chinese texts use themselves (softmax, d_model, MiniLM, RoPE, the
    article's "Thinking Machines"), and the words of the built-in English corpus (the real model reads English)."""
    from attention_plot.text import catalogue

    words = {w for text in catalogue("zh").values() for w in LATIN.findall(str(text))}
    words |= set(LATIN.findall((ROOT / "assets" / "corpus" / "attention.txt").read_text()))
    words |= set(LATIN.findall((ROOT / "assets" / "corpus" / "sentences.txt").read_text()))  # the corpus a head is scored over
    words |= {"KiB", "MiB", "GiB"}  # binary units, as Chinese texts write them too
    return frozenset(w.lower() for w in words)


def english_left(page, settle_ms: int = 1500) -> list[str]:
    """What is still English on a Chinese page (``ENGLISH_JS``): each text or attribute with a Latin word that is not in
    ``english_allowed``. Streamlit may draw an English name again a moment before the page script (60 ms after any
    change) says it in Chinese: what is left is read again for up to ``settle_ms``."""
    allowed = english_allowed()

    def left() -> list[str]:
        return [said for said in page.evaluate(ENGLISH_JS)
                if any(w.lower() not in allowed for w in LATIN.findall(said.split("=", 1)[1]))]

    found, waited = left(), 0
    while found and waited < settle_ms:
        page.wait_for_timeout(250)
        waited += 250
        found = left()
    return found


def scan(visit, views_: list[tuple[str, str, str, str]]):
    """Yield (view, violations) for each view, opened in ``visit`` (tests.fuzz.driver.Visit: it waits for the page to settle)."""
    for view in views_:
        visit.goto(address(*view))
        yield view, violations(visit.page)


def main() -> None:
    from scripts.browser import browser, serve_process
    from tests.fuzz.driver import Server

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one page's id or path")
    parser.add_argument("--why", action="store_true", help="print each element's HTML and axe's reason")
    parser.add_argument("--rounds", type=int, default=1, help="full scans, one after another (each view opened afresh)")
    parser.add_argument("--phone", action="store_true", help="every view on a phone too, not only on a projector's screen")
    args = parser.parse_args()
    log = Path("/tmp/axe-scan-server.log")
    screens = list(SCREENS) if args.phone else ["projector"]
    rounds = []
    with serve_process(log=log) as (url, _), browser() as chromium:
        for number in range(1, args.rounds + 1):
            totals, details = scan_round(chromium, Server(url, log), screens, args.only, args.rounds == 1)
            rounds.append(totals)
            print(f"round {number}: {' · '.join(f'{i} {totals[i]}' for i in IMPACTS)}", flush=True)
            for view, v in details:
                print(f"- {' '.join(view)}: {v['id']} ({v['impact']}): {v['help']}: {', '.join(v['nodes'][:4])}")
                if args.why:
                    print("\n".join(f"    {why}" for why in v["why"][:6]))
    clean = sum(1 for totals in rounds if not totals["critical"] and not totals["serious"])
    print(f"\n{clean} of {len(rounds)} full scans with nothing serious or critical")


def scan_round(chromium, server, screens: list[str], only: str | None, table: bool) -> tuple[Counter, list]:
    """One full scan on each of ``screens`` (a fresh browser context each): the totals by impact, and the serious and
    critical violations with their views; ``table``: a line per view as it is scanned."""
    from tests.fuzz.driver import Visit

    totals: Counter = Counter()
    details = []
    if table:
        print(f"| view | {' | '.join(IMPACTS)} |\n|---|{'---|' * len(IMPACTS)}")
    for screen in screens:
        visit = Visit(chromium, server, screen)
        visit.open("/")
        for view, found in scan(visit, views(only)):
            counts = Counter(v["impact"] for v in found for _ in v["nodes"])
            totals.update(counts)
            if table:
                print(f"| {view[0] or 'walkthrough'} {view[1]} {view[2]} {view[3]} {screen} | "
                      f"{' | '.join(str(counts[i]) for i in IMPACTS)} |", flush=True)
            details += [((*view, screen), v) for v in found if v["impact"] in ("critical", "serious")]
        visit.close()
    if table:
        print(f"| all | {' | '.join(str(totals[i]) for i in IMPACTS)} |\n")
    return totals, details


if __name__ == "__main__":
    main()

"""axe-core (WCAG 2.2 A and AA rules) over every page and section of the registry, on a screen and in presenter mode, in
English and Chinese, in Debian's chromium. Prints a table of violations by impact per view, and the serious and
critical ones with the elements they name.

    .venv/bin/python scripts/axe_scan.py              # every view (about 4 minutes)
    .venv/bin/python scripts/axe_scan.py --only cosine

tests/test_accessibility.py runs the same scan (``scan``) and fails on the first serious or critical violation.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from axe_playwright_python.sync_playwright import Axe  # noqa: E402

from views.params import Choice  # noqa: E402
from views.registry import PAGES  # noqa: E402

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
IMPACTS = ("critical", "serious", "moderate", "minor")
LAYOUTS = {"screen": {}, "presenter": {"present": 1}}


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
    """axe-core's violations on the page as drawn now (every chart drawn first): id, impact, help, the elements."""
    page.evaluate("() => window.__attentionCharts && window.__attentionCharts.drawAll()")
    page.wait_for_timeout(300)
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [" ".join(n["target"]) if isinstance(n["target"], list) else str(n["target"]) for n in v["nodes"]]}
            for v in results.response["violations"]]


def scan(visit, views_: list[tuple[str, str, str, str]]):
    """Yield (view, violations) for each view, opened in ``visit`` (tests.fuzz.driver.Visit: it waits for the page to settle)."""
    for view in views_:
        visit.goto(address(*view))
        yield view, violations(visit.page)


def main() -> None:
    from scripts.browser import browser, serve_process
    from tests.fuzz.driver import Server, Visit

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one page's id or path")
    args = parser.parse_args()
    log = Path("/tmp/axe-scan-server.log")
    totals: Counter = Counter()
    details = []
    with serve_process(log=log) as (url, _), browser() as chromium:
        visit = Visit(chromium, Server(url, log), "projector")
        visit.open("/")
        print(f"| view | {' | '.join(IMPACTS)} |\n|---|{'---|' * len(IMPACTS)}")
        for view, found in scan(visit, views(args.only)):
            counts = Counter(v["impact"] for v in found for _ in v["nodes"])
            totals.update(counts)
            print(f"| {view[0] or 'walkthrough'} {view[1]} {view[2]} {view[3]} | {' | '.join(str(counts[i]) for i in IMPACTS)} |", flush=True)
            details += [(view, v) for v in found if v["impact"] in ("critical", "serious")]
        visit.close()
    print(f"| all | {' | '.join(str(totals[i]) for i in IMPACTS)} |\n")
    for view, v in details:
        print(f"- {' '.join(view)}: {v['id']} ({v['impact']}): {v['help']}: {', '.join(v['nodes'][:4])}")


if __name__ == "__main__":
    main()

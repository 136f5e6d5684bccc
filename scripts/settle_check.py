"""Does every page settle by itself? Each section of each page opened N times, in both languages, at 1280 x 720.

An open settles when its script has finished and nothing in the page changes for 2 s (shadow roots counted: the app's
components draw there) within 10 s of the address being opened; and no chart (``.js-plotly-plot``) grows after it is
drawn by more than its title's room (issue 48: a heatmap grew from 337 px to 2,309 px by itself and the page never
settled). A chart may grow once as it is drawn, by ``TITLE_ROOM`` px at most: a title wider than the chart is broken
onto lines and the chart grows by them (assets/components/shell/chart-titles.js, at most 3 fits); after the page has
settled no chart grows at all. Prints a table (a line per view: opens, settled, slowest settle, the most a chart grew
while drawn and after settling, the most DOM changes of an open) and exits 1 if any open did not settle or any chart
grew more than that.

Usage: ``python scripts/settle_check.py [--opens 10] [--only positions] [--lang en]`` (``make settle``); run it alone
(``flock /tmp/attention-browser.lock``): it starts its own server.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.browser import browser, serve  # noqa: E402
from views.shell.registry import PAGES, views_of  # noqa: E402

QUIET_MS = 2000  # settled: no DOM change for this long
LIMIT_MS = 10_000  # within this long of opening the address
TITLE_ROOM = 400  # the most a chart grows for its title as it is drawn (chart-titles.js MOST)
LATE_MS = 1000  # after settling, watched this long more: no chart may grow
VIEWPORT = {"width": 1280, "height": 720}

# Installed before the page's own scripts: one observer over the document and every shadow root attached later, and
# each chart's height when first drawn and at its tallest since.
WATCH_JS = """(() => {
  const s = window.__settle = {last: performance.now(), changes: 0, charts: []};
  const observer = new MutationObserver((records) => { s.changes += records.length; s.last = performance.now(); });
  const watch = (root) => observer.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) { const root = attach.call(this, init); watch(root); return root; };
  watch(document);
  const seen = new WeakMap();
  const measure = () => {
    for (const plot of document.querySelectorAll('.js-plotly-plot')) {
      if (!plot.querySelector('.main-svg')) continue;
      const h = Math.round(plot.getBoundingClientRect().height);
      let chart = seen.get(plot);
      if (!chart) {
        chart = {first: h, most: h, now: h, steps: [[Math.round(performance.now()), h]],
                 title: ((plot.layout && plot.layout.title && plot.layout.title.text) || '').replace(/<[^>]*>/g, '').slice(0, 50)};
        seen.set(plot, chart); s.charts.push(chart);
      }
      if (h !== chart.steps[chart.steps.length - 1][1] && chart.steps.length < 20) chart.steps.push([Math.round(performance.now()), h]);
      chart.most = Math.max(chart.most, h); chart.now = h;
    }
    setTimeout(measure, 100);
  };
  measure();
})();"""

STATE_JS = """() => {
  const s = window.__settle, app = document.querySelector('[data-testid=stApp]');
  return {quiet: performance.now() - s.last, now: performance.now(), changes: s.changes,
          running: !app || app.getAttribute('data-test-script-state') !== 'notRunning',
          charts: s.charts.map((c) => ({first: c.first, most: c.most, now: c.now, title: c.title, steps: c.steps}))};
}"""


@dataclass(frozen=True)
class Open:
    """One open of an address: settled (within ``LIMIT_MS``), when (ms after the address was opened, the last change
    before the quiet), the DOM changes counted, and each chart's growth in px since first drawn."""

    settled: bool
    settle_ms: float
    changes: int
    growth: tuple[int, ...]  # each chart's growth since first drawn, px
    late: tuple[int, ...] = ()  # each chart's growth after the page settled, px
    grown: tuple[str, ...] = ()  # each chart grown too much: its title and its heights (ms since the page began: px)

    @property
    def ok(self) -> bool:
        return self.settled and all(g <= TITLE_ROOM for g in self.growth) and all(g <= 0 for g in self.late)


def views(only: str | None = None, langs: tuple[str, ...] = ("en", "zh")) -> list[str]:
    """The address of every section of every page (``only``: one page's, by id or path), in each of ``langs``."""
    found = []
    for page in PAGES:
        if only and only not in (page.id, page.path):
            continue
        for section in views_of(page) or ("",):
            for lang in langs:
                query = {"lang": lang} | ({"section": section} if section else {})
                found.append(f"/{'' if page.default else page.path}?{urlencode(query)}")
    return found


def open_once(context, url: str, limit_ms: float = LIMIT_MS) -> Open:
    """Open ``url`` in a fresh tab of ``context`` (``WATCH_JS`` installed) and wait until it settles or ``limit_ms`` pass
    (the suite gives a slow, shared machine more: a page in a loop never has 2 s of quiet however long it is given)."""
    page = context.new_page()
    try:
        began = time.monotonic()
        page.goto(url, wait_until="commit")
        state = None
        while (time.monotonic() - began) * 1000 < limit_ms + 500:
            page.wait_for_timeout(100)
            try:
                state = page.evaluate(STATE_JS)
            except Exception:  # the document is being replaced (a redirect): read it again
                continue
            if not state["running"] and state["quiet"] >= QUIET_MS:
                break
        elapsed = (time.monotonic() - began) * 1000
        settled = bool(state) and not state["running"] and state["quiet"] >= QUIET_MS and elapsed <= limit_ms + 500
        settle_ms = elapsed - (state["quiet"] if state else 0)
        before = {i: c["now"] for i, c in enumerate((state or {}).get("charts", ()))}
        if settled:  # watched a moment more: a chart that grows once the page is quiet is caught
            page.wait_for_timeout(LATE_MS)
            state = page.evaluate(STATE_JS)
        charts = (state or {}).get("charts", ())
        late = tuple(c["now"] - before[i] for i, c in enumerate(charts) if i in before)
        grown = tuple(f"{c['title']!r}: " + ", ".join(f"{t} ms: {h} px" for t, h in c["steps"])
                      for i, c in enumerate(charts) if c["most"] - c["first"] > TITLE_ROOM or (i < len(late) and late[i] > 0))
        return Open(settled=settled, settle_ms=settle_ms, changes=(state or {}).get("changes", 0),
                    growth=tuple(c["most"] - c["first"] for c in charts), late=late, grown=grown)
    finally:
        page.close()


def check(base: str, addresses: list[str], opens: int, chromium, said=print, limit_ms: float = LIMIT_MS) -> dict[str, list[Open]]:
    """Open each of ``addresses`` ``opens`` times on the server at ``base`` (one browser context, 1280 x 720, a fresh tab
    each time) -> {address: its opens}; ``said`` gets a table line per address."""
    context = chromium.new_context(viewport=VIEWPORT)
    context.add_init_script(WATCH_JS)
    found = {}
    try:
        for address in addresses:
            found[address] = runs = [open_once(context, base + address, limit_ms) for _ in range(opens)]
            settled = [r for r in runs if r.settled]
            said(f"| {address} | {len(runs)} | {len(settled)} | "
                 f"{max((r.settle_ms for r in settled), default=float('nan')) / 1000:.1f} s | "
                 f"{max((max(r.growth, default=0) for r in runs), default=0)} px | "
                 f"{max((max(r.late, default=0) for r in runs), default=0)} px | {max(r.changes for r in runs):,} | "
                 f"{'ok' if all(r.ok for r in runs) else 'FAILED'} |")
            for why in dict.fromkeys(w for r in runs for w in r.grown):
                said(f"|   grew: {why} | | | | | | | |")
    finally:
        context.close()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opens", type=int, default=10, help="opens of each view (default 10)")
    parser.add_argument("--only", help="one page, by id or path")
    parser.add_argument("--lang", choices=("en", "zh"), help="one language (default both)")
    args = parser.parse_args()
    if args.opens < 1:
        parser.error("--opens must be 1 or more")
    addresses = views(args.only, (args.lang,) if args.lang else ("en", "zh"))
    if not addresses:
        parser.error(f"no page {args.only!r}: use a page id or path from views/shell/registry.py")
    print(f"{len(addresses)} views x {args.opens} opens at 1280 x 720: settled = quiet for {QUIET_MS / 1000:.0f} s within "
          f"{LIMIT_MS / 1000:.0f} s; a chart may grow by {TITLE_ROOM} px at most as it is drawn (its title), not at all "
          f"in the {LATE_MS / 1000:.0f} s after the page settled\n")
    print("| view | opens | settled | slowest settle | most growth while drawn | most growth after settling | most DOM changes | |\n"
          "|---|---|---|---|---|---|---|---|", flush=True)
    began = time.monotonic()
    with serve() as base, browser() as chromium:
        check(base, addresses[:1], 1, chromium, said=lambda line: None)  # a first open warms the server (model, caches)
        found = check(base, addresses, args.opens, chromium, said=lambda line: print(line, flush=True))
    runs = [r for rs in found.values() for r in rs]
    bad = [a for a, rs in found.items() if not all(r.ok for r in rs)]
    print(f"\n{sum(r.settled for r in runs)} of {len(runs)} opens settled; {sum(bool(r.grown) for r in runs)} "
          f"with a chart that grew too much; {time.monotonic() - began:.0f} s")
    if bad:
        print("FAILED: " + ", ".join(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

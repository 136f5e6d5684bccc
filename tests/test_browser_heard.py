"""What a screen reader hears of the step component's tables, and what a phone shows of its dialog and formulas (issue 49),
on every view that draws a matrix with the step component: the walkthrough (every step at once), presenter mode, compare
mode, the images page's steps and Watch it learn's snapshots, in both languages, on a phone (390 × 844) and on a
projector (1280 × 720). One page per language visits them all, the phone first, then the same page widened: the whole
test is a few seconds a view. (The lesson on a projector draws no matrix: its stops are questions and links to these views.)

1. Every number is heard under its own key and its own query: in chromium's accessibility tree (what a screen reader is
   given), each data cell's column header is the header above it in the page and its row's header the one beside it.
   An empty corner cell marked aria-hidden once dropped out of the tree and moved every header one column left.
2. A word that comes twice is told apart: "1·the" and "5·the" head the raw scores' columns.
3. The presenter's ⚙ dialog lies inside a phone's screen, and no label in it is squeezed to a character a line.
4. No glyph of a formula is under 10 px (MathML shrinks each script level to 0.71: d_model's "model" was 6 px).
5. A sidebar slider's name is said once; two tables that scroll sideways on a phone are regions with two names.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from conftest import SENTENCE
from playwright.sync_api import Error

from scripts.browser import IDLE_JS, STEPS_ROOT_JS, wait_for_matrix

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1280, "height": 720}
WORDS = {"text": SENTENCE}  # "the" twice
LONGER = "the elephant sat on the mat"  # "the" twice, and in English both of the focused word's tables scroll on a phone
VIEWS = {  # every view that draws a matrix with the step component, and the matrix it waits for
    "walkthrough": ("/?" + urlencode({"text": LONGER, "heads": 2, "all": 1}), "raw.1"),
    "presenter": ("/?" + urlencode(WORDS | {"heads": 2, "step": 3, "present": 1}), "raw.1"),
    "compare": ("/?" + urlencode(WORDS | {"step": 3, "compare": "heads:4,seed:1"}), "b-raw.1"),
    "images": ("/vision?" + urlencode({"section": "steps", "step": 2}), 0),
    "learn": ("/watch-it-learn?" + urlencode({"section": "watch"}), 0),
}
CELLS = {"cell", "gridcell"}
ROLES = CELLS | {"columnheader", "rowheader"}


def _dom_grid(node: dict) -> tuple[list[list[tuple[int, int, int]]], dict[int, tuple[int, int, int]]]:
    """A table's rows as the page lays them out: each cell (backend id, first column, colspan), and each cell's place."""
    rows: list[list[tuple[int, int, int]]] = []

    def walk(element: dict) -> None:
        if element.get("localName") == "tr":
            cells, column = [], 0
            for cell in element.get("children", []):
                if cell.get("localName") in ("td", "th"):
                    attributes = dict(zip(cell.get("attributes", [])[::2], cell.get("attributes", [])[1::2], strict=True))
                    span = int(attributes.get("colspan", 1))
                    cells.append((cell["backendNodeId"], column, span))
                    column += span
            rows.append(cells)
        elif element.get("localName") != "table" or not rows:  # never into a table inside a cell
            for child in element.get("children", []):
                walk(child)

    walk(node)
    return rows, {cell[0]: (i, cell[1], cell[2]) for i, row in enumerate(rows) for cell in row}


def _covering(row: list[tuple[int, int, int]], column: int) -> int | None:
    return next((cell[0] for cell in row if cell[1] <= column < cell[1] + cell[2]), None)


def heard(page) -> list[dict]:
    """Every data cell of every table on the page as chromium's accessibility tree gives it to a screen reader: its table,
    its words, the column header at its place in the tree (its column among the cells the tree keeps, colspans counted)
    and its row's header; beside them the headers at its place in the page (its column in the DOM)."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
        by_id = {node["nodeId"]: node for node in nodes}
        by_backend = {node["backendDOMNodeId"]: node for node in nodes if "backendDOMNodeId" in node}
        role = lambda node: node.get("role", {}).get("value")
        name = lambda backend: (by_backend.get(backend, {}).get("name", {}).get("value") or "").strip() if backend else None

        def kept(node: dict, roles: set[str]):
            """The descendants of ``node`` in ``roles`` the tree keeps (an ignored node's children are still read)."""
            for child_id in node.get("childIds", []):
                child = by_id.get(child_id)
                if not child or role(child) == "table":
                    continue
                if role(child) in roles and not child.get("ignored"):
                    yield child
                elif role(child) not in ("row", *ROLES):
                    yield from kept(child, roles)

        found = []
        for table in nodes:
            if role(table) != "table" or table.get("ignored") or "backendDOMNodeId" not in table:
                continue
            dom = cdp.send("DOM.describeNode", {"backendNodeId": table["backendDOMNodeId"], "depth": -1})["node"]
            grid, place = _dom_grid(dom)
            tree_rows = []
            for row in kept(table, {"row"}):
                cells, column = [], 0
                for cell in kept(row, ROLES):
                    span = place.get(cell.get("backendDOMNodeId"), (0, 0, 1))[2]
                    cells.append((cell.get("backendDOMNodeId"), column, span, role(cell)))
                    column += span
                tree_rows.append(cells)
            if not tree_rows or not grid:
                continue
            for cells in tree_rows[1:]:
                row_header = next((cell[0] for cell in cells if cell[3] == "rowheader"), None)
                for backend, column, _, kind in cells:
                    if kind not in CELLS:
                        continue
                    at, dom_column, _ = place[backend]
                    dom_row_header = next((cell[0] for cell in grid[at] if by_backend.get(cell[0], {}).get("role", {}).get("value")
                                           == "rowheader"), None)
                    found.append({"table": (table.get("name", {}).get("value") or "").strip(), "text": name(backend),
                                  "column": name(_covering(tree_rows[0], column)), "key": name(_covering(grid[0], dom_column)),
                                  "heard_under": _covering(tree_rows[0], column), "above": _covering(grid[0], dom_column),
                                  "row": name(row_header), "query": name(dom_row_header)})
        return found
    finally:
        cdp.detach()


def ax_names(page, wanted: str) -> list[str]:
    """The names of the page's accessibility tree's nodes of role ``wanted`` (slider, region...)."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    return [(node.get("name", {}).get("value") or "") for node in nodes
            if node.get("role", {}).get("value") == wanted and not node.get("ignored")]


def every_number_heard_under_its_key(page, where: str) -> list[dict]:
    """Every data cell heard under the key above it and the query beside it (read again, up to three times, where a
    table was drawn anew between two reads of the tree: a wrong header is wrong on every read)."""
    wrong: list = ["not read"]
    for _ in range(3):
        try:
            cells = heard(page)
        except (Error, KeyError) as error:  # a node read a moment after it left the page
            wrong = [repr(error)]
            page.wait_for_timeout(300)
            continue
        wrong = [cell for cell in cells if cell["above"] is None  # every number has a key above it,
                 or cell["heard_under"] != cell["above"]  # is heard under it,
                 or cell["row"] != cell["query"]]  # and under its row's header
        if cells and not wrong:
            return cells
        page.wait_for_timeout(300)
    raise AssertionError(f"{where}: {wrong[:4]}")


DIALOG_JS = f"""() => {{
  const dialog = ({STEPS_ROOT_JS}()).querySelector('.dialog');
  if (!dialog || dialog.hidden) return null;
  const outside = [...dialog.querySelectorAll('*')].filter(el => el.getClientRects().length).map(el => {{
    const box = el.getBoundingClientRect();
    return {{tag: el.tagName, text: (el.textContent || '').slice(0, 30), left: box.left, right: box.right, top: box.top, bottom: box.bottom}};
  }}).filter(box => box.left < 0 || box.right > innerWidth || box.top < 0 || box.bottom > innerHeight);
  const squeezed = [...dialog.querySelectorAll('.label, strong, .switch > span:last-child')].filter(el => {{
    const range = document.createRange(); range.selectNodeContents(el);
    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    const words = el.textContent.trim();
    return lines.size > 1 && lines.size >= words.replace(/\\s/g, '').length / 2;  // a character or two a line
  }}).map(el => el.textContent);
  return {{outside, squeezed, width: dialog.getBoundingClientRect().width}};
}}"""

FORMULAS_JS = f"""() => {{
  const small = [];
  let glyphs = 0;
  for (const math of ({STEPS_ROOT_JS}()).querySelectorAll('.main .formula math')) {{
    const walker = document.createTreeWalker(math, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {{
      if (!text.textContent.trim()) continue;
      glyphs += 1;
      const px = parseFloat(getComputedStyle(text.parentElement).fontSize);
      if (px < 10) small.push([text.textContent.trim(), px]);
    }}
  }}
  return {{glyphs, small}};
}}"""


def settled(page, which: str | int, wide: bool) -> None:
    """The app idle and the step component drawn on the page's screen (a phone's width, or wider) with the matrix ``which``."""
    page.wait_for_function(IDLE_JS, timeout=60000)
    wait_for_matrix(page, which, timeout_ms=60000)
    width = f"({STEPS_ROOT_JS}()).getBoundingClientRect().width"
    page.wait_for_function(f"() => {width} {'>' if wide else '<='} {PHONE['width']}", timeout=15000)
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")  # redrawn, then named


def said_twice(name: str) -> bool:
    """"d_k (size) d_k (size)": the same words twice, a space between."""
    half = len(name) // 2
    return len(name) % 2 == 1 and name[:half] == name[half + 1:]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_number_is_heard_under_its_key_and_a_phone_reads_the_dialog_and_formulas(open_page, app_url, lang):
    page = open_page(None, viewport=PHONE)
    for view, (path, which) in VIEWS.items():
        page.set_viewport_size(PHONE)
        page.goto(f"{app_url}{path}&lang={lang}")
        settled(page, which, wide=False)
        cells = every_number_heard_under_its_key(page, f"{view} {lang} phone")
        if view == "walkthrough":
            raw = next(cell["table"] for cell in cells if cell["text"] and cell["table"] in ("raw scores", "原始分数"))
            keys = list(dict.fromkeys(cell["column"] for cell in cells if cell["table"] == raw))
            assert keys == ["1·the", "elephant", "sat", "on", "5·the", "mat"], keys  # 2. the two "the" told apart
            queries = list(dict.fromkeys(cell["row"] for cell in cells if cell["table"] == raw))
            assert queries == keys, queries
            formulas = page.evaluate(FORMULAS_JS)  # 4. every step's formula at once
            assert formulas["glyphs"] > 100 and not formulas["small"], formulas
            sideways = [name for name in ax_names(page, "region") if name.endswith(("scrolls sideways", "可左右滚动"))]
            assert len(sideways) >= (2 if lang == "en" else 1), sideways  # 5. two regions, each named by its caption
            assert len(set(sideways)) == len(sideways) and all(len(name) > 20 for name in sideways), sideways
        if view == "presenter":
            page.locator(".steps nav.bar .choices-button").click()  # 3. the ⚙ dialog on a phone
            page.wait_for_function(f"() => !!({DIALOG_JS})()", timeout=10000)
            dialog = page.evaluate(DIALOG_JS)
            assert not dialog["outside"] and not dialog["squeezed"], dialog
            page.keyboard.press("Escape")
        page.set_viewport_size(PROJECTOR)
        settled(page, which, wide=True)
        every_number_heard_under_its_key(page, f"{view} {lang} projector")
        if view == "walkthrough":
            assert not page.evaluate(FORMULAS_JS)["small"]
            sliders = ax_names(page, "slider")  # 5. the sidebar's sliders, each named once
            assert sliders and all(name and not said_twice(name) for name in sliders), sliders

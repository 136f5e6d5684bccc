"""Arithmetic a student can redo by hand: where the app shows a sum term by term (a raw score's tooltip, the focus tables),
the terms as shown, added and rounded as the result is shown, give the result as shown; and every number shown is the
true value rounded. Checked with decimal arithmetic on the text the browser receives."""

import re
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pytest
from conftest import matrix, open_app, payload
from jsnumbers import number as js_number
from jsnumbers import run

from attention_core import explain
from attention_plot import figures as builders

SENTENCES = ("the cat sat on the mat", "The animal didn't cross the street because it was too tired", "她正在吃一个绿色的苹果")
TERM = re.compile(r"^(?:\+ )?\(?(−?\d+\.\d+)\)? × \(?(−?\d+\.\d+)\)? = (−?\d+\.\d+)$")


def number(text: str) -> Decimal:
    return Decimal(text.replace("−", "-"))


def places(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def by_hand(value: Decimal, like: str) -> Decimal:
    """``value`` rounded as a student rounds (half away from zero) to the decimals of the shown number ``like``."""
    return value.quantize(Decimal(1).scaleb(-places(like)), rounding=ROUND_HALF_UP)


def is_rounded(shown: str, true: float) -> bool:
    """The shown number is the true value rounded to its decimals (within float noise)."""
    return abs(float(number(shown)) - true) <= 0.5 * 10.0 ** -places(shown) + 1e-12


def check_tooltip(tooltip: str, cell: str, q: np.ndarray, k: np.ndarray) -> None:
    """One raw score's tooltip: every term is (shown q) × (shown k) rounded; their sum rounds to the cell as shown."""
    lines = tooltip.split("<br>")
    terms = [TERM.match(line) for line in lines if TERM.match(line)]
    assert len(terms) == len(q), tooltip
    total = Decimal(0)
    for t, match in enumerate(terms):
        a, b, product = match.groups()
        assert is_rounded(a, q[t]) and is_rounded(b, k[t]), (tooltip, t)
        assert places(a) == places(b) == places(product) >= 3, tooltip
        assert by_hand(number(a) * number(b), product) == number(product), (tooltip, t)  # the product of the shown operands
        total += number(product)
    shown_sum, rounded = lines[-1].removeprefix("Σ = ").split(" ≈ ")
    assert number(shown_sum) == total, tooltip
    assert rounded == cell and by_hand(total, cell) == number(cell), (tooltip, cell)  # adds up to the cell as shown
    assert abs(total - by_hand(total, cell)) != Decimal("0.5").scaleb(-places(cell)), tooltip  # never a tie


def browser_tooltips(header: dict, values: np.ndarray, head: int = 1) -> tuple[list[list[str]], list[list[str]]]:
    """Each raw score's cell text and tooltip as the step component makes them (numbers.js in Node.js, from the payload)."""
    raw, q, k = (matrix(header, values, f"{name}.{head}") for name in ("raw", "q", "k"))
    places = values[header["matrices"][f"raw.{head}"]["arithmetic"]["places"]["offset"]:][: raw.size].reshape(raw.shape)
    cells = run([("cellText", [float(x), 2]) for x in raw.ravel()])
    lines = run([("dotTerms", [list(map(float, q[i])), list(map(float, k[j])), i, j, int(places[i, j]), float(raw[i, j])])
                 for i in range(raw.shape[0]) for j in range(raw.shape[1])])
    tips = ["<br>" + "<br>".join("".join(p if isinstance(p, str) else f"<sub>{p['sub']}</sub>" for p in line) for line in item)
            for item in lines]
    n = raw.shape[1]
    return [cells[i * n:(i + 1) * n] for i in range(raw.shape[0])], [tips[i * n:(i + 1) * n] for i in range(raw.shape[0])]


@pytest.mark.parametrize("text", SENTENCES)
@pytest.mark.parametrize(("d_k", "heads"), [(4, 2), (3, 1), (8, 1)])
def test_every_raw_score_tooltip_adds_up_by_hand(text, d_k, heads):
    header, values = payload(open_app(text=text, d_k=d_k, heads=heads, step=3))
    for h in range(1, heads + 1):
        head = explain(text, d_k=d_k, heads=heads).trace.heads[h - 1]
        cells, tips = browser_tooltips(header, values, h)
        n_q, n_k = head.raw_scores.shape
        for i in range(n_q):
            for j in range(n_k):
                assert is_rounded(cells[i][j], head.raw_scores[i, j])
                check_tooltip(tips[i][j], cells[i][j], head.q[i], head.k[j])


def test_tooltips_add_up_on_many_random_heads():
    """The builder alone, on heads no page shows by default: larger d_k, other seeds, large values."""
    rng = np.random.default_rng(7)
    for d in (1, 2, 5, 8):
        for scale in (0.3, 1.0, 6.0):
            q, k = rng.normal(0, scale, (9, d)), rng.normal(0, scale, (7, d))
            scores = q @ k.T
            lines, cells = builders.dot_arithmetic(q, k, scores), builders.cell_text(scores, 2)
            for i in range(9):
                for j in range(7):
                    check_tooltip(lines[i, j], cells[i, j], q[i], k[j])


@pytest.mark.parametrize("text", SENTENCES)
@pytest.mark.parametrize(("d_k", "focus", "score"), [(4, 2, "scaled_dot"), (3, 1, "scaled_dot"), (8, 3, "dot"), (5, 2, "cosine")])
def test_focus_tables_add_up_by_hand(text, d_k, focus, score):
    header, values = payload(open_app(text=text, d_k=d_k, focus=focus, score=score))
    head = explain(text, d_k=d_k, score=score).trace.heads[0]
    query = focus - 1
    meta = header["focus"]["heads"][0]
    decimals = values[meta["places"]["offset"] + 2 * query : meta["places"]["offset"] + 2 * query + 2]
    row = lambda id_: [js_number(x) for x in matrix(header, values, id_)[query]]
    (table,) = run([("focusTables", [row("raw.1"), row("masked.1"), row("weights.1"), [js_number(x) for x in matrix(header, values, "v.1").ravel()],
                                     head.v.shape[1], row("output.1"), meta["divisor"], int(decimals[0]), int(decimals[1]),
                                     header["keys"], header["focus"]["dims"], header["focus"]["decimals"]])])
    raw = [r[2] for r in table["scores"]]
    scaled = [r[3] for r in table["scores"]]
    weights = [r[4] for r in table["scores"]]
    divisor = table["divisor"]
    assert is_rounded(divisor, head.divisor)
    for j, (s, t, a) in enumerate(zip(raw, scaled, weights)):
        assert is_rounded(s, head.raw_scores[query, j]) and is_rounded(a, head.weights[query, j])
        if t != "−∞":
            assert is_rounded(t, head.masked_scores[query, j])
            quotient = number(s) / number(divisor)
            assert by_hand(quotient, t) == number(t), (s, divisor, t)  # score ÷ divisor = scaled, as shown
            assert abs(quotient - number(t)) < Decimal("0.5").scaleb(-places(t)), (s, divisor, t)  # not a tie

    shown = min(head.v.shape[1], 8)
    assert table["shown"] == shown
    for d in range(shown):
        terms, output = [r[d + 1] for r in table["weighted"]], table["sum"][d]
        assert is_rounded(output, head.output[query, d])
        total = Decimal(0)
        for j, term in enumerate(terms):
            assert is_rounded(term, head.weights[query, j] * head.v[j, d])
            total += number(term)
        assert by_hand(total, output) == number(output), (d, terms, output)  # the weighted rows add up to the output
        assert abs(total - number(output)) < Decimal("0.5").scaleb(-places(output)), (d, terms, output)
    for label, a in zip([r[0] for r in table["weighted"]], weights):
        assert label.startswith(f"{a} × v")  # the weight in the row's name is the one in the table above

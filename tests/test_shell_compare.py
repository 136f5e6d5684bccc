"""AppTest for the walkthrough's compare mode: walk B beside walk A in one payload (views/widgets/compare.py and compare_pack.py), its
presets, its link and B's own settings. The numbers beside each step are checked against loops over the two sides'
matrices as the browser receives them (not the core's functions). Stepping both together: tests/test_browser_compare.py."""

import json
import math

import numpy as np
import pytest
from conftest import SENTENCE, matrix, open_app, payload, step_ids, step_matrices

from views.widgets.compare import CHANGEABLE, PRESETS, read_spec, write_spec


def contrast(header: dict, step: str) -> dict:
    return next(b for b in next(s for s in header["steps"] if s["id"] == step)["blocks"] if b["type"] == "contrast")


def at_place(values: np.ndarray, place: dict) -> np.ndarray:
    count = math.prod(place["shape"])
    return values[place["offset"] : place["offset"] + count].reshape(place["shape"])


def loop_std(row) -> float:
    row = [x for x in row if math.isfinite(x)]
    mean = sum(row) / len(row)
    return math.sqrt(sum((x - mean) ** 2 for x in row) / len(row))


def loop_entropy(row) -> float:
    return -sum(w * math.log2(w) for w in row if w > 0)


def test_a_preset_sets_a_and_b_and_says_what_to_look_for():
    at = open_app(text=SENTENCE)
    at.selectbox(key="walkthrough.compare_choice").set_value("scaling").run()
    assert not at.exception
    header, _ = payload(at)
    assert (header["compare"]["a"], header["compare"]["b"]) == ("A · scaled dot product", "B · dot product")
    assert at.query_params["compare"] == "score:dot" and at.query_params["d_k"] == "64"
    assert "What to look for" in header["compare"]["look"] and "√64 = 8" in header["compare"]["look"]
    bound = float(np.abs(matrix(header, payload(at)[1], "b-scaled.1")).max())  # B's unscaled scores, the wider
    ranges = [header["matrices"][id_]["range"] for id_ in ("scaled.1", "b-scaled.1")]
    assert ranges == [[-bound, bound]] * 2  # one colour scale for A's and B's matrix of one name
    qkv = next(s for s in header["steps"] if s["id"] == "qkv")
    sides = next(b for b in qkv["blocks"] if b["type"] == "row")["children"]
    assert all(b["type"] == "matrix" for side in sides for b in side["blocks"])  # a side's matrices one under another
    assert step_ids(header) == ["tokens", "qkv", "raw", "scaled", "softmax", "output"]
    assert step_matrices(header, "softmax") == ["weights.1", "b-weights.1", "diff-weights.1"]
    titles = [header["matrices"][id_]["title"] for id_ in step_matrices(header, "softmax")]
    assert titles[0].startswith("A · ") and titles[1].startswith("B · ")  # the CSV and PNG say which side
    again = open_app(**dict(at.query_params))  # the link, opened fresh
    header_again, values_again = payload(again)
    assert header_again["compare"] == header["compare"] and header_again["id"] == header["id"]
    np.testing.assert_array_equal(values_again, payload(at)[1])


@pytest.mark.parametrize("spec", ["score:dot", "seed:7,heads:2", "mode:hard"])
def test_the_numbers_beside_each_step_match_a_loop_over_both_sides(spec):
    at = open_app(text=SENTENCE, d_model="16", d_k="16", heads="2", compare=spec)
    header, values = payload(at)
    heads = header["heads"]
    for h in range(1, heads + 1):
        a_raw, b_raw = matrix(header, values, f"raw.{h}"), matrix(header, values, f"b-raw.{h}")
        a_w, b_w = matrix(header, values, f"weights.{h}"), matrix(header, values, f"b-weights.{h}")
        a_out, b_out = matrix(header, values, f"output.{h}"), matrix(header, values, f"b-output.{h}")
        found = {row["label"]: row for step in ("raw", "softmax", "output") for row in contrast(header, step)["rows"]}
        spread, largest, entropy = found["Spread of its raw scores (standard deviation)"], found["Its largest weight"], \
            found["Entropy of its weights (bits)"]
        for i in range(len(SENTENCE.split())):
            assert math.isclose(at_place(values, spread["a"])[h - 1, i], loop_std(a_raw[i]), rel_tol=1e-9)
            assert math.isclose(at_place(values, spread["b"])[h - 1, i], loop_std(b_raw[i]), rel_tol=1e-9)
            assert at_place(values, largest["b"])[h - 1, i] == max(b_w[i])
            assert math.isclose(at_place(values, entropy["a"])[h - 1, i], loop_entropy(a_w[i]), abs_tol=1e-12)
            moved = sum(abs(x - y) for x, y in zip(a_w[i], b_w[i])) / 2
            assert math.isclose(at_place(values, found["Weight to move to turn A's row into B's"]["both"])[h - 1, i], moved, abs_tol=1e-12)
            distance = math.sqrt(sum((x - y) ** 2 for x, y in zip(a_out[i], b_out[i])))
            assert math.isclose(at_place(values, found["Distance between A's and B's output rows"]["both"])[h - 1, i], distance,
                                rel_tol=1e-9, abs_tol=1e-12)
            for j in range(len(SENTENCE.split())):  # B − A, cell by cell
                assert matrix(header, values, f"diff-weights.{h}")[i, j] == b_w[i, j] - a_w[i, j]


def test_one_head_beside_four_the_head_step_and_each_sides_heads():
    at = open_app(text=SENTENCE, compare="heads:4")
    header, _ = payload(at)
    assert header["heads"] == 4 and step_ids(header)[-1] == "heads"
    assert step_matrices(header, "softmax", head=3) == ["weights.1", "b-weights.3"]  # A shows its one head
    a_side, _ = next(b for b in header["steps"][-1]["blocks"] if b["type"] == "row")["children"]
    assert a_side["blocks"][0]["html"] == "One head: there is nothing to combine."
    assert step_matrices(header, "heads") == ["b-concat", "b-w_o", "b-mh-output"]
    largest = contrast(header, "softmax")["rows"][0]
    assert largest["a"]["shape"] == [1, 6] and largest["b"]["shape"] == [4, 6]
    notes = [b for b in next(s for s in header["steps"] if s["id"] == "softmax")["blocks"] if b["type"] == "note"]
    assert notes[0]["html"].startswith("Soft attention")  # said once for both sides, above them
    assert "1 × 6 × 6 against 4 × 6 × 6" in notes[-1]["html"]


def test_b_s_own_settings_change_b_only_and_a_setting_equal_to_a_s_is_left_out():
    at = open_app(text=SENTENCE, compare="seed:1")
    at.slider(key="walkthrough.compare_b.1.heads").set_value(2).run()
    assert at.query_params["compare"] == "heads:2,seed:1" and at.query_params.get("heads", "1") == "1"
    at.number_input(key="walkthrough.compare_b.1.seed").set_value(0).run()  # A's seed: no longer a difference
    assert at.query_params["compare"] == "heads:2"
    header, _ = payload(at)
    assert header["compare"] == {"a": "A · 1 head", "b": "B · 2 heads"}
    at.selectbox(key="walkthrough.compare_choice").set_value("off").run()
    assert "compare" not in at.query_params and "compare" not in payload(at)[0]  # the link of one walk, as before


def test_a_tampered_compare_link_gets_a_notice_and_the_link_says_what_is_shown():
    at = open_app(text=SENTENCE, compare="d_k:999,colour:red")
    said = [w.body for w in at.warning]
    assert any("out of range (1–128); using 128" in text for text in said), said
    assert any("colour\\:red" in text and "left out" in text for text in said), said
    assert at.query_params["compare"] == "d_k:128"
    assert payload(at)[0]["compare"]["b"] == "B · d_k 128"
    at.run()  # said once
    assert not any("out of range" in w.body for w in at.warning)
    unread = open_app(text=SENTENCE, compare="temperature:abc")  # read as A's own 1: nothing to compare, the link says so
    assert "compare" not in unread.query_params and "compare" not in payload(unread)[0]
    twice = open_app(text=SENTENCE, compare="seed:-5,seed:3")  # the first counts (clamped to 0 = A's), the second is left out
    assert any("seed\\:3" in w.body and "left out" in w.body for w in twice.warning), [w.body for w in twice.warning]
    assert "compare" not in twice.query_params
    script = open_app(text=SENTENCE, compare="<script>alert(1)</script>")
    assert "compare" not in payload(script)[0] and any("not understood" in w.body for w in script.warning)


def test_old_links_and_the_articles_example_open_one_walk():
    assert "compare" not in payload(open_app(text=SENTENCE, d_k="8"))[0]
    textbook = open_app(walk="textbook", compare="score:dot")
    assert "compare" not in payload(textbook)[0]


def test_random_weights_beside_a_real_model_say_why_their_matrices_are_not_subtracted(model):
    at = open_app(text=SENTENCE, compare="walk:pretrained", lang="zh")
    header, _ = payload(at)
    assert (header["compare"]["a"], header["compare"]["b"]) == ("A · 随机权重", "B · MiniLM，第 1 层")
    assert header["heads"] == 12 and "[CLS]" in header["matrices"]["b-raw.1"]["rows"]
    notes = [b["html"] for s in header["steps"] for b in s["blocks"] if b["type"] == "note" and "軟" not in b["html"]]
    said = [html for html in notes if "不能逐格相减" in html]
    assert len(said) == 4 and all("软注意力" in html for html in set(notes) - set(said))  # the raw, scaled, softmax and output steps


def test_a_temperature_divides_b_s_scaled_scores_once_more_and_sharpens_its_weights():
    """B at temperature 0.5: its raw scores are A's, its scaled scores A's doubled (÷ √d_k · 0.5), its weights the
    softmax of those (a loop), its largest weight higher and its entropy lower for every word; the step says 0.5."""
    at = open_app(text=SENTENCE, d_model="16", d_k="16", compare="temperature:0.5")
    header, values = payload(at)
    assert header["compare"] == {"a": "A · temperature 1", "b": "B · temperature 0.5"}
    a_raw, b_raw = matrix(header, values, "raw.1"), matrix(header, values, "b-raw.1")
    np.testing.assert_array_equal(a_raw, b_raw)
    b_scaled = matrix(header, values, "b-scaled.1")
    np.testing.assert_allclose(b_scaled, a_raw / (math.sqrt(16) * 0.5), rtol=1e-12)
    b_w = matrix(header, values, "b-weights.1")
    for i, row in enumerate(b_scaled):
        exps = [math.exp(x - max(row)) for x in row]
        assert np.allclose(b_w[i], [e / sum(exps) for e in exps], atol=1e-12)
    rows = {row["label"]: row for row in contrast(header, "softmax")["rows"]}
    largest, entropy = rows["Its largest weight"], rows["Entropy of its weights (bits)"]
    assert (at_place(values, largest["b"]) > at_place(values, largest["a"])).all()
    assert (at_place(values, entropy["b"]) < at_place(values, entropy["a"])).all()
    scaled = next(s for s in header["steps"] if s["id"] == "scaled")
    assert "0.5" in str(scaled["blocks"]) and at.query_params["compare"] == "temperature:0.5"


def test_a_causal_mask_on_b_lets_each_word_see_only_the_words_before_it():
    """B with a causal mask, in Chinese: its masked scores are −∞ above the diagonal and its scaled ones below it,
    its weights 0 there and each row adds up to 1 (a loop); word 1's weight is all on itself; A is unmasked."""
    at = open_app(text=SENTENCE, compare="causal:1", lang="zh")
    header, values = payload(at)
    assert header["compare"] == {"a": "A · 没有掩码", "b": "B · 因果掩码"}
    n = len(SENTENCE.split())
    masked, scaled = matrix(header, values, "b-masked.1"), matrix(header, values, "b-scaled.1")
    weights = matrix(header, values, "b-weights.1")
    for i in range(n):
        for j in range(n):
            assert (masked[i, j] == -math.inf and weights[i, j] == 0) if j > i else masked[i, j] == scaled[i, j]
        assert math.isclose(sum(weights[i]), 1.0, abs_tol=1e-12)
    assert weights[0, 0] == 1.0 and (matrix(header, values, "weights.1") > 0).all()
    softmax = next(s for s in header["steps"] if s["id"] == "softmax")
    column_b = next(b for b in softmax["blocks"] if b["type"] == "row")["children"][1]
    assert any(b["type"] == "note" and "因果掩码" in b["html"] for b in column_b["blocks"])
    assert any(b["type"] == "matrix" and b["matrix"] == "b-masked" for b in column_b["blocks"])
    assert header["matrices"]["b-masked.1"]["title"] == "B · 因果掩码 · 掩码后的分数（每个词之后为 −∞）"


def test_a_temperature_or_mask_beside_a_real_model_is_left_out(model):
    """A trained model's layer has its own scaling and no mask: B's temperature and mask are dropped there."""
    at = open_app(text=SENTENCE, compare="walk:pretrained,temperature:2,causal:1")
    assert payload(at)[0]["compare"]["b"] == "B · MiniLM, layer 1"
    assert not any(s["id"] == "softmax" and "causal" in str(s["blocks"]) for s in payload(at)[0]["steps"])


def test_a_spec_reads_back_as_written():
    for preset in PRESETS.values():
        assert read_spec(write_spec(preset.b)) == (preset.b, [])
    changes = {"walk": "pretrained", "d_k": 16, "heads": 2, "score": "cosine", "temperature": 0.5, "mode": "hard",
               "causal": True, "pe": False, "rope": True, "seed": 3}
    assert tuple(changes) == CHANGEABLE
    assert write_spec(changes) == "walk:pretrained,d_k:16,heads:2,score:cosine,temperature:0.5,mode:hard,causal:1,pe:0,rope:1,seed:3"
    assert read_spec(write_spec(changes)) == (changes, [])


def test_a_lesson_stop_opens_its_claim_side_by_side():
    from urllib.parse import parse_qsl, urlsplit

    at = open_app("lesson")
    at.radio(key="lesson.scaling.guess").set_value(0).run()
    links = [dict(parse_qsl(urlsplit(b.proto.url).query)) for b in at.get("link_button")]
    side_by_side = next(link for link in links if "compare" in link)
    assert side_by_side["compare"] == "score:dot" and side_by_side["d_k"] == "64" and side_by_side["step"] == "5"
    walk = open_app(**{k: v for k, v in side_by_side.items() if k != "step"})
    assert payload(walk)[0]["compare"]["b"] == "B · dot product" and "look" in payload(walk)[0]["compare"]


def test_the_json_export_carries_both_sides_each_read_back(downloads):
    import json

    from attention_core import from_json

    at = open_app(text=SENTENCE, compare="heads:2")
    button = next(b for b in at.get("download_button") if b.proto.label == "Download this view (JSON)")
    both = json.loads(downloads(button))
    assert [both["A"]["name"], both["B"]["name"]] == ["A · 1 head", "B · 2 heads"]
    a, b = from_json(json.dumps(both["A"]["view"])), from_json(json.dumps(both["B"]["view"]))
    assert len(a.trace.heads) == 1 and len(b.trace.heads) == 2
    header, values = payload(at)
    np.testing.assert_array_equal(b.trace.heads[1].weights, matrix(header, values, "b-weights.2"))


def test_a_preset_after_b_s_own_settings_and_nothing_puts_a_back():
    """The tester's sequence: a preset, one of B's settings changed, two presets more, then "nothing": each preset
    shows its own comparison (B's older settings, kept by the browser, never come back), and "nothing" gives A the
    settings it had before the first preset."""
    own = "a dog bit my man"  # no word twice
    at = open_app(text=own, d_k="6", pe="1")
    choose = lambda name: at.selectbox(key="walkthrough.compare_choice").set_value(name).run()
    choose("scaling")
    at.slider(key="walkthrough.compare_b.1.d_k").set_value(61).run()
    assert at.query_params["compare"] == "d_k:61,score:dot"
    assert at.selectbox(key="walkthrough.compare_choice").value == "own"
    for preset, spec in (("heads", "heads:4"), ("hard", "mode:hard"), ("positions", "rope:1"), ("trained", "walk:pretrained")):
        choose(preset)
        assert at.query_params["compare"] == spec and at.selectbox(key="walkthrough.compare_choice").value == preset
        if preset != "trained":  # a preset after another: A as it was before the first, then this preset's A
            assert (at.query_params["d_k"], at.query_params.get("d_model", "8")) == ("6", "8"), preset
        # positions needs a word said twice: the sentence has none, so the preset walks REPEATED's, and says so
        assert at.query_params.get("text") == ("the cat sat on the mat" if preset == "positions" else own), preset
        if preset == "positions":
            assert any("the sentence “the cat sat on the mat”" in c.value for c in at.caption)
    assert any("A keeps the sidebar" in c.value for c in at.caption)
    choose("off")
    assert "compare" not in at.query_params
    assert (at.query_params["d_k"], at.query_params["d_model"], at.query_params["pe"]) == ("6", "8", "1")
    assert at.query_params["text"] == own


def test_b_s_own_settings_begin_with_another_seed_dropped_at_b_s_first_change():
    """"B's own settings" from one walk: B begins with the next seed (it must differ in something); B's first change
    of its own replaces it, so B − A shows that change alone."""
    at = open_app(text=SENTENCE, seed="3")
    at.selectbox(key="walkthrough.compare_choice").set_value("own").run()
    assert at.query_params["compare"] == "seed:4"
    at.selectbox(key=next(s.key for s in at.selectbox if s.key.endswith(".temperature"))).set_value(0.5).run()
    assert at.query_params["compare"] == "temperature:0.5"
    at.slider(key=next(s.key for s in at.slider if s.key.endswith(".heads"))).set_value(2).run()
    assert at.query_params["compare"] == "heads:2,temperature:0.5"  # a chosen change stays


def test_a_real_models_word_pieces_are_paired_with_the_sentences_words():
    from views.widgets.compare_pack import aligned_rows

    words = ("The", "animal", "didn't", "cross", ".")
    pieces = ("[CLS]", "the", "animal", "didn", "'", "t", "cross", ".", "[SEP]")
    assert aligned_rows(words, pieces) == [1, 2, 3, 6, 7]  # a word: its first piece
    assert aligned_rows(pieces, words) == [-1, 0, 1, 2, 2, 2, 3, 4, -1]  # a piece: its word
    assert aligned_rows(("她", "正", "在"), ("[CLS]", "[UNK]", "正", "[UNK]", "[SEP]")) == [1, 2, 3]
    assert aligned_rows(("cats", "sat"), ("[CLS]", "cat", "##s", "sat", "[SEP]")) == [1, 3]
    assert aligned_rows(("a", "b"), ("[CLS]", "x", "b", "[SEP]")) == [-1, -1]  # split otherwise: nothing paired
    at = open_app(text="Thinking Machines", compare="walk:pretrained")
    header, values = payload(at)
    block = contrast(header, "softmax")
    assert block["b_rows"] == [1, 2]
    row = block["rows"][0]  # the largest weight of "Thinking" in B: the model's row of "thinking", not of [CLS]
    assert at_place(values, row["b"])[0, block["b_rows"][0]] == max(matrix(header, values, "b-weights.1")[1])


def test_rope_in_b_turns_its_queries_and_keys_after_x_w_and_tells_the_repeated_word_apart():
    """The positions preset's B: its Q/K step shows X W_Q, X W_K ("qx", "kx"), a note, then Q and K turned by RoPE,
    which its scores use; A (no positions) gives "the" (rows 1 and 5) one row of weights, B two."""
    from attention_core import explain

    at = open_app(text=SENTENCE, pe="0", compare="rope:1")
    header, values = payload(at)
    assert header["compare"]["b"] == "B · RoPE"
    b = explain(SENTENCE, positions=False, rope=True, max_tokens=48)
    q, k = b.projected(0)
    np.testing.assert_array_equal(matrix(header, values, "b-qx.1"), q)
    np.testing.assert_array_equal(matrix(header, values, "b-kx.1"), k)
    np.testing.assert_array_equal(matrix(header, values, "b-q.1"), b.trace.heads[0].q)
    np.testing.assert_array_equal(matrix(header, values, "b-raw.1"), b.trace.heads[0].q @ b.trace.heads[0].k.T)
    a_weights, b_weights = matrix(header, values, "weights.1"), matrix(header, values, "b-weights.1")
    np.testing.assert_array_equal(a_weights[0], a_weights[4])
    assert np.abs(b_weights[0] - b_weights[4]).max() > 1e-3
    qkv = next(step for step in header["steps"] if step["id"] == "qkv")
    text = json.dumps(qkv)
    assert "RoPE" in text and "b-qx" in text and "\"qx\"" not in text  # A's side has no turn

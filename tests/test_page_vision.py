"""AppTest for Attention on images (the tiny vision transformer): every section in both languages with the core's
numbers, predict-then-reveal, the training slider, a digit drawn by hand, its grid and its link."""

import numpy as np
import pytest
from conftest import ROOT, figures, z_values

from attention_core import vision

SNAPSHOT = ROOT / "assets" / "snapshots" / "vision-2.npz"


def test_every_section_in_both_languages_draws_the_cores_numbers():
    from conftest import all_text, figure_titles, figures, open_app, z_values

    from views.shell.registry import VISION_SECTIONS

    for lang in ("en", "zh"):
        for section in VISION_SECTIONS:
            at = open_app("vision", section=section, lang=lang)
            assert figure_titles(at) or at.get("bidi_component"), (section, lang)
    images, labels = vision.load_digits()
    with np.load(SNAPSHOT) as data:
        probes = data["probes"]
    at = open_app("vision", section="sentence", digit=3, patch=4)
    image = images[probes[3]]
    assert labels[probes[3]] == 3
    np.testing.assert_allclose(z_values(figures(at)[0]), image / 16)
    np.testing.assert_allclose(z_values(figures(at)[1]), vision.patches(image, 4) / 16)
    from conftest import matrix, payload, step_titles

    header, values = payload(open_app("vision", section="steps", step=4, head=2), key="vision-steps")
    assert header["view"]["step"] == 4 and header["view"]["head"] == 2 and header["heads"] == 2
    assert step_titles(header, "softmax", head=2) == ["attention weights"]
    np.testing.assert_allclose(matrix(header, values, "weights.2").sum(axis=1), 1.0)
    assert header["matrices"]["weights.2"]["rows"][0] == "[CLS]" and len(header["matrices"]["weights.2"]["rows"]) == 17
    glimpse = open_app("vision", section="glimpse")
    table = glimpse.table[0].value
    _, held = vision.split(len(images))
    with np.load(SNAPSHOT) as data:
        from attention_core.tiny import TinyParameters

        params = TinyParameters(vision.vit_config(2), {k.removeprefix("param."): data[k] for k in data.files if k.startswith("param.")})
    assert table.iloc[3, 1] == f"{vision.glimpse_accuracy(params, images[held], labels[held], 4):.1%}"
    assert "chance" in all_text(glimpse)
    assert "the 8 patches the soft model's rollout ranks first already give 90.8%, where 8 random patches give 30.9%" in all_text(glimpse)
    coarse = open_app("vision", section="glimpse", patch=4)  # 4 patches: a glimpse is fewer than all of them, never all 4
    assert "the 3 patches the soft model's rollout ranks first already give 83.0%, where 3 random patches give 65.2%" in all_text(coarse)


def test_predict_first_hides_the_maps_until_the_guess():
    from conftest import all_text, figure_titles, open_app

    at = open_app("vision", section="looks", predict=1, digit=7)
    assert figure_titles(at) == ["This 7, cut into its numbered patches"] and "hidden until the reveal" in all_text(at)
    assert "in layer 2, with both heads averaged, which patch of this 7 will [CLS] attend to most" in all_text(at)
    next(s for s in at.selectbox if s.key and s.key.endswith("-which")).set_value(5).run()
    next(b for b in at.button if b.key and b.key.endswith("-reveal")).click().run()
    assert "Layer 2, head 2: [CLS] → patches" in figure_titles(at)
    mean = next(f for f in figures(at) if f["layout"]["title"]["text"] == "Layer 2, heads averaged: [CLS] → patches")
    weights = z_values(mean)[::2, ::2].ravel()  # one value per 2 × 2 patch
    best = int(weights.argmax())
    # the answer is on a map shown, and says where: its patch's pixel rows and columns, as the maps are labelled
    rows, cols = f"{best // 4 * 2 + 1}–{best // 4 * 2 + 2}", f"{best % 4 * 2 + 1}–{best % 4 * 2 + 2}"
    assert f"Answer: {best + 1} · patch {best + 1} \\(pixel rows {rows}, columns {cols}\\) with {weights[best]:.2f}" in all_text(at)
    assert [trace["type"] for trace in mean["data"]] == ["heatmap", "contour", "contour"]  # the digit's outline over it
    assert "Pick a patch…" not in all_text(at)  # asked about patches, not keys (the box is gone once revealed)


def test_the_training_slider_and_its_link_say_the_step_itself():
    """The link holds the training step (0 … 600), as the slider shows it, not an index; a step between two watched ones
    takes the nearest and says so."""
    from conftest import all_text, open_app

    from views.shell.registry import BY_ID
    from views.vision import shipped

    assert tuple(int(s) for s in shipped(2).steps) == next(p for p in BY_ID["vision"].params if p.name == "training").options
    at = open_app("vision", section="looks", digit=7, training=0)
    assert "at training step 0" in all_text(at) and not at.warning
    assert at.select_slider(key="vision.training").value == 0
    at.select_slider(key="vision.training").set_value(600).run()
    assert at.query_params["training"] == "600"
    at = open_app("vision", section="looks", digit=7, training=35)
    assert "at training step 40" in all_text(at) and at.select_slider(key="vision.training").value == 40


def test_a_digit_drawn_by_hand_is_clamped_or_called_blank(monkeypatch):
    """What the editor returns is checked: values outside 0–16 are clamped with a notice, a blank image gets a message."""
    from conftest import all_text, open_app

    from views import vision as page

    at = open_app("vision", section="draw", digit=1)
    assert at.data_editor and "The model reads this as a" in all_text(at)
    wild = np.full((8, 8), 3.0)
    wild[0, 0], wild[1, 1] = 99, -5
    monkeypatch.setattr(page, "editor", lambda image, key, T, **_: wild)
    at = open_app("vision", section="draw", digit=1)
    assert "clamped" in all_text(at) and "The model reads this as a" in all_text(at)
    assert "row 1, column 1: 99 → 16; row 2, column 2: −5 → 0." in all_text(at)  # each changed cell named
    read = next(f for f in figures(at) if f["layout"]["title"]["text"].startswith("What the model reads"))
    expected = np.clip(wild, 0, 16) / 16
    np.testing.assert_allclose(z_values(read), expected)
    monkeypatch.setattr(page, "editor", lambda image, key, T, **_: np.zeros((8, 8)))
    at = open_app("vision", section="draw", digit=1)
    assert "The image is blank" in all_text(at) and "The model reads" not in all_text(at)


def test_the_grids_edits_are_applied_to_its_image_and_a_tampered_state_changes_nothing():
    from views.vision import with_edits

    base = np.arange(64.0).reshape(8, 8)
    typed = with_edits(base, {0: {"1": 99}, "2": {"8": None}, 7: {"3": "4.5"}})
    assert typed[0, 0] == 99 and np.isnan(typed[2, 7]) and typed[7, 2] == 4.5
    assert np.count_nonzero(typed != base) == 3  # NaN != anything: the three edits and nothing else
    np.testing.assert_array_equal(with_edits(base, {9: {"1": 5}, 0: {"x": 5, "9": 5}, 1: {"2": "ink"}}), base)
    assert base[0, 0] == 0  # the base itself is not changed


def test_a_clamped_grid_starts_again_from_what_the_model_reads(monkeypatch):
    """The grid never keeps an emptied cell ("None") or 99 on screen: after a clamp it is drawn again from the clean image,
    under a new key, and the next edit applies to that."""
    from conftest import all_text, open_app

    at = open_app("vision", section="draw", digit=1)
    at.session_state["vision-draw-1-0"] = {"edited_rows": {0: {"1": 99}, 1: {"2": None}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert "row 1, column 1: 99 → 16; row 2, column 2: empty → 0." in all_text(at)
    base = at.session_state["vision-draw-1-base"]
    assert base[0, 0] == 16 and base[1, 1] == 0 and at.session_state["vision-draw-1-revision"] == 1
    at.run()
    assert "clamped" not in all_text(at) and "The model reads this as a" in all_text(at)  # the work is kept, the notice gone


def test_a_drawing_is_kept_while_the_student_looks_elsewhere_and_start_again_brings_the_digit_back():
    from conftest import all_text, open_app

    at = open_app("vision", section="draw", digit=1)
    original = at.session_state["vision-draw-1-base"].copy()
    assert not [b for b in at.button if b.label == "Start again from the digit"]  # nothing typed yet
    at.session_state["vision-draw-1-0"] = {"edited_rows": {0: {"1": 5}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert "clamped" not in all_text(at) and at.session_state["vision-draw-1-typed"][0, 0] == 5
    at.session_state["vision.digit"] = 2  # another digit: its own grid, the first kept
    at.run()
    assert "vision-draw-2-base" in at.session_state and "vision-draw-1-0" not in at.session_state
    at.session_state["vision.digit"] = 1  # back: the 5 is still there
    at.run()
    assert at.session_state["vision-draw-1-base"][0, 0] == 5 and at.session_state["vision-draw-1-typed"][0, 0] == 5
    again = next(b for b in at.button if b.label == "Start again from the digit")
    again.click().run()
    np.testing.assert_array_equal(at.session_state["vision-draw-1-typed"], original)
    assert not [b for b in at.button if b.label == "Start again from the digit"]


def test_a_drawing_is_kept_in_the_link_and_a_link_opens_it():
    """A drawn digit is 64 characters of the link (0 … g for pixels 0 … 16, row by row); the link opens the same grid
    and the same prediction in a new session; another digit or "Start again" leaves the link without it; a tampered
    code is unknown (a notice) and the grid is the digit's."""
    from conftest import all_text, open_app

    from views.vision import drawn_code, drawn_image

    ramp = np.arange(64, dtype=np.float64).reshape(8, 8) % 17
    assert drawn_code(ramp) == ("0123456789abcdefg" * 4)[:64] and np.array_equal(drawn_image(drawn_code(ramp)), ramp)
    assert drawn_image("0" * 63) is None and drawn_image("h" * 64) is None

    at = open_app("vision", section="draw", digit=1)
    assert at.query_params["drawn"] == ""  # the digit as it is: nothing drawn
    at.session_state["vision-draw-1-0"] = {"edited_rows": {0: {"1": 16}, 7: {"8": 9}}, "added_rows": [], "deleted_rows": []}
    at.run()
    code = at.query_params["drawn"]
    drawn = drawn_image(code)
    assert drawn[0, 0] == 16 and drawn[7, 7] == 9
    said = [m.value for m in at.markdown if "%" in m.value]
    other = open_app("vision", section="draw", digit=1, drawn=code)  # the link, in a new session
    np.testing.assert_array_equal(other.session_state["vision-draw-1-typed"], drawn)
    assert [m.value for m in other.markdown if "%" in m.value] == said and other.query_params["drawn"] == code
    other.session_state["vision.digit"] = 2
    other.run()
    assert other.query_params["drawn"] == "" and "vision-draw-2-typed" in other.session_state
    np.testing.assert_array_equal(other.session_state["vision-draw-2-typed"], other.session_state["vision-draw-2-base"])
    at.button(key="vision-draw-1-again").click().run()
    assert at.query_params["drawn"] == ""
    tampered = open_app("vision", section="draw", digit=1, drawn="zz" + code[2:])
    assert tampered.warning and tampered.query_params["drawn"] == ""
    np.testing.assert_array_equal(tampered.session_state["vision-draw-1-typed"], at.session_state["vision-draw-1-typed"])
    assert "clamped" not in all_text(tampered)


def test_a_patchs_map_says_where_the_rest_of_its_weight_goes():
    """The map of one patch's attention covers the patches; what it gives [CLS] is said, and the two add up to 1.00."""
    import re

    from conftest import all_text, open_app

    at = open_app("vision", section="looks", digit=7, query=11)
    found = re.search(r"Patch 11's weights on the 16 patches add up to (\d\.\d\d); the rest, (\d\.\d\d), goes to \[CLS\]", all_text(at))
    assert found, all_text(at)[:2000]
    assert float(found[1]) + float(found[2]) == pytest.approx(1.0) and 0 < float(found[1]) < 1
    pick = next(f for f in figures(at) if f["layout"]["title"]["text"] == "The image: click a patch to see where it looks")
    frames = [shape for shape in pick["layout"]["shapes"] if shape["type"] == "rect"]  # patch 11: row 3, column 3 of 4
    assert [(f["x0"], f["x1"], f["y0"], f["y1"]) for f in frames] == [(3.5, 5.5, 3.5, 5.5)]


def test_the_rollout_map_is_coloured_up_to_its_own_largest_share():
    """The rollout's shares are small (under 0.3 on a digit): drawn from 0 to their largest, rounded up to a tenth, so a
    phone shows more than white; the heads' maps keep 0 … 1."""
    from conftest import open_app

    at = open_app("vision", section="looks", digit=7)
    rollout = next(f for f in figures(at) if f["layout"]["title"]["text"].startswith("Rollout: "))
    head = next(f for f in figures(at) if f["layout"]["title"]["text"] == "Layer 2, head 2: [CLS] → patches")
    top = float(np.nanmax(z_values(rollout)))
    assert rollout["data"][0]["zmax"] == pytest.approx(np.ceil(top * 10) / 10) and top < rollout["data"][0]["zmax"] < 1
    assert head["data"][0]["zmax"] == 1

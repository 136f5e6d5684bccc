"""AppTest for "Watch it learn": every section and task, the step slider over the snapshots, the decoder (mask, next
token, generation from the cache, bad prompts), live training with its slots and queue, and the √d_k experiment."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import all_text, figure_titles, figures, open_app, z_values

from attention_core import tiny_forward
from attention_core.tasks import named_task
from views.learn import data as learn
from views.widgets import snapshots as shipped

PAGE = "learn"


def snapshots(at) -> tuple[dict, np.ndarray]:
    from conftest import payload

    return payload(at, key="learn-steps")


def test_the_default_view_is_the_end_of_the_induction_run_with_both_heads_scored():
    at = open_app(PAGE)
    run = shipped.snapshot("induction").run
    header, _ = snapshots(at)
    assert header["view"]["step"] == len(run.steps)  # the last snapshot
    end = header["steps"][-1]
    titles = [header["matrices"][b["matrix"]]["title"] for block in end["blocks"] for b in (block["children"] if block["type"] == "row" else [block])]
    assert f"Layer 2, head 1 · {run.closeness[-1, 1, 0]:.2f} on the induction pattern" in titles
    assert f"Layer 1, head 1 · {run.closeness[-1, 0, 0]:.2f} on the previous token" in titles
    assert "**induction pattern:** layer 2, head 1 puts 0.93 of its weight there" in all_text(at)
    assert f"Step {int(run.steps[-1])} of {int(run.steps[-1])}:" in end["body"]


def test_every_snapshot_is_in_one_payload_and_the_link_names_the_training_step():
    """The browser scrubs through the snapshots (tests/test_browser_app.py); the payload holds each one's attention exactly,
    and the link writes the training step (0, 30, …), not the snapshot's place."""
    from conftest import matrix

    run = shipped.snapshot("induction").run
    header, values = snapshots(open_app(PAGE, step="0"))
    assert header["view"]["step"] == 1 and header["url_values"]["step"][:3] == ["0", "30", "60"]
    assert len(header["steps"]) == len(run.steps) and "Step 0 of 1500:" in header["steps"][0]["body"]
    np.testing.assert_array_equal(matrix(header, values, "s0-l0-h0"), run.weights[0, 0, 0])
    np.testing.assert_array_equal(matrix(header, values, f"s{len(run.steps) - 1}-l1-h1"), run.weights[-1, 1, 1])
    assert len(open_app(PAGE).get("bidi_component")[-1].proto.bytes) < 1_000_000  # every snapshot of a task: under 1 MB


def test_a_step_between_snapshots_shows_the_nearest_one():
    header, _ = snapshots(open_app(PAGE, task="copy", step="148"))
    assert header["url_values"]["step"][header["view"]["step"] - 1] == "147"


def test_the_decoder_masks_the_future_and_its_cached_rows_equal_the_full_pass():
    at = open_app(PAGE, section="decode", task="induction", prompt="KDCFAEKDC", generate="3", top_k="1")
    snap = shipped.snapshot("induction")
    text = all_text(at)
    assert "KDCFAEKDC` → **`FAE`**" in text  # greedy (top-1) generation copies the earlier run
    scores, weights = (z_values(f) for f in figures(at)[:2])
    assert np.isnan(scores[np.triu_indices(12, 1)]).all()  # -inf above the diagonal: blank cells
    assert np.all(weights[np.triu_indices(12, 1)] == 0.0)
    full = tiny_forward(snap.params, named_task("induction").encode("KDCFAEKDCFAE")).layers[1].weights[0, 0]
    np.testing.assert_allclose(weights, full, rtol=0, atol=0)
    assert "their largest weight is 0." in text and "by at most" in text
    bars = figures(at)[2]["data"][0]
    assert sorted(bars["y"])[-1] == 1.0 and sum(1 for y in bars["y"] if y > 0) == 1  # top-1 keeps one token


def test_generation_is_reproduced_by_the_same_link_and_follows_the_seed():
    first = open_app(PAGE, section="decode", task="text", prompt="the query ", generate="8", temperature="1")
    again = open_app(PAGE, section="decode", task="text", prompt="the query ", generate="8", temperature="1")
    line = [m.value for m in first.markdown if m.value.startswith("`the␣query␣`")]
    assert line and line == [m.value for m in again.markdown if m.value.startswith("`the␣query␣`")]
    other = open_app(PAGE, section="decode", task="text", prompt="the query ", generate="8", temperature="5", seed="7")
    assert line != [m.value for m in other.markdown if m.value.startswith("`the␣query␣`")]


def test_the_text_model_continues_its_own_sentence_at_the_default_temperature():
    at = open_app(PAGE, section="decode", task="text")
    assert "`the␣key␣` → **`answer`**" in all_text(at)  # six tokens, sampled at temperature 0.5


@pytest.mark.parametrize("prompt, message", [
    ("<script>alert(1)</script>", "outside this task's alphabet: \\<"),  # escaped: shown as text
    ("ABC😀", "outside this task's alphabet: 😀"),
    ("   ", "Type a prompt"),
])
def test_bad_prompts_get_a_clear_message(prompt, message):
    at = open_app(PAGE, section="decode", task="induction", prompt=prompt)
    assert message in all_text(at)


def test_a_prompt_longer_than_the_context_keeps_its_end():
    at = open_app(PAGE, section="decode", task="copy", prompt="AB" * 10)
    assert "only its last 12 are used" in all_text(at)


def test_training_runs_in_a_worker_and_shows_its_heads_and_curves():
    at = open_app(PAGE, section="train", task="copy", steps="100", heads="1", d_k="8")
    at.button(key="learn-train").click().run(timeout=60)
    assert not at.exception
    done = [s.value for s in at.success]
    assert done and done[0].startswith("Trained 100 steps in")
    assert "Layer 1, head 1" in figure_titles(at)[0]
    at.select_slider(key="learn.lr").set_value(0.1).run()
    assert "The settings changed since your last training" in all_text(at)


def test_when_every_slot_is_taken_a_training_waits_then_says_the_server_is_busy(monkeypatch):
    monkeypatch.setattr(learn, "QUEUE_SECONDS", 0.3)
    slots = learn.slots()
    taken = [slots.acquire(blocking=False) for _ in range(learn.MAX_TRAININGS)]
    try:
        at = open_app(PAGE, section="train", task="copy", steps="100")
        at.button(key="learn-train").click().run(timeout=30)
        assert "The server stayed busy with other trainings" in all_text(at)
    finally:
        for got in taken:
            if got:
                slots.release()


def test_the_scaling_experiment_reports_what_was_measured_here_and_in_the_scaling_lab():
    at = open_app(PAGE, section="scaling")
    result = shipped.scaling()
    text = all_text(at)
    lower = int((result.loss[-1, 0, :, -1] < result.loss[-1, 1, :, -1]).sum())
    assert f"in {lower} of {result.seeds.size} seeds" in text
    assert "Gradient reaching the scores at step 0: mean |∂loss/∂s| (log axes)" in figure_titles(at)
    table = at.table[0].value
    assert list(table["d_k"]) == [4, 16, 64, 256]
    lab = open_app("scaling")
    assert "8. Tested by training" in all_text(lab) and f"in {lower} of {result.seeds.size} seeds" in all_text(lab)


def test_fixing_a_bad_prompt_brings_the_decoder_back_with_every_control_as_it_was():
    at = open_app(PAGE, section="decode", task="induction", temperature="2", top_k="3", generate="4", layer="1")
    at.text_input(key="learn.prompt").input("XYZ").run()
    assert "outside this task's alphabet: X" in all_text(at)
    at.text_input(key="learn.prompt").input("ABCAB").run()
    assert not at.exception and not at.error
    assert at.select_slider(key="learn.temperature").value == 2.0 and at.slider(key="learn.top_k").value == 3
    assert at.slider(key="learn.generate").value == 4 and at.segmented_control(key="learn.layer").value == 1
    assert "`ABCAB` → **`" in all_text(at)


def test_a_one_layer_task_and_back_keeps_the_decoders_layer_and_head():
    at = open_app(PAGE, section="decode", task="induction", layer="1", head="2")
    at.segmented_control(key="learn.task").set_value("copy").run()
    at.segmented_control(key="learn.task").set_value("induction").run()
    assert not at.exception
    assert at.segmented_control(key="learn.head").value == 2


def test_a_long_prompt_generates_what_fits_and_a_short_one_gets_its_tokens_back():
    at = open_app(PAGE, section="decode", task="induction", generate="6", prompt="ABCDEFGHIJKL")
    assert "Only 3 of the 6 tokens will fit" in all_text(at)
    at.text_input(key="learn.prompt").input("ABCAB").run()
    assert at.slider(key="learn.generate").value == 6 and "Only" not in all_text(at)


def test_changing_the_task_shows_the_end_of_its_run():
    at = open_app(PAGE, task="induction", step="300")
    at.segmented_control(key="learn.task").set_value("reverse").run()
    header, _ = snapshots(at)
    assert header["variant"] == "reverse" and header["enter"]["step"] == len(header["steps"])  # the browser opens its end
    assert header["url_values"]["step"][-1] == "400"


def test_a_training_whose_loss_blows_up_is_called_diverged_and_one_that_recovers_unstable():
    from attention_core.tasks import Run
    from views.learn.sections import instability

    def run(loss):
        return Run(np.arange(len(loss)), np.array(loss), np.zeros(len(loss)), np.zeros((len(loss), 1, 1, 2, 2)),
                   np.zeros((len(loss), 1, 1)), np.zeros(3, dtype=int))

    assert instability(run([3.0, 2.0, 1.0])) is None
    assert instability(run([3.0, 2.0, 3.5])) == "diverged" and instability(run([3.0, np.nan, 1.0])) == "diverged"
    assert instability(run([3.0, 800.0, 2.0])) == "unstable"


def test_switching_task_in_the_decoder_loads_that_tasks_example_prompt():
    at = open_app(PAGE, section="decode", task="induction")
    for name, prompt in (("copy", "ABAB"), ("sort", "72941|"), ("reverse", "ABCDE|"), ("text", "the key ")):
        at.segmented_control(key="learn.task").set_value(name).run()
        assert at.text_input(key="learn.prompt").value == prompt and not at.error, name


def test_a_bad_character_is_named_as_typed_and_an_invisible_one_by_its_code():
    at = open_app(PAGE, section="decode", task="induction", prompt="ab?z")
    assert "alphabet: ?" in all_text(at)
    at.text_input(key="learn.prompt").input("AB\tC").run()
    assert "alphabet: U+0009" not in all_text(at)  # a tab is white space: ignored in letter tasks
    at.text_input(key="learn.prompt").input("AB\x07C").run()
    assert "alphabet: U+0007" in all_text(at)


def test_four_heads_train_into_two_charts_a_row():
    at = open_app(PAGE, section="train", task="copy", steps="100", heads="4", d_k="4")
    at.button(key="learn-train").click().run(timeout=60)
    titles = figure_titles(at)
    assert sum(title.startswith("Layer 1, head") for title in titles) == 4
    heatmaps = [f for f in figures(at) if f["data"][0]["type"] == "heatmap"]
    assert all("texttemplate" not in f["data"][0] for f in heatmaps)  # 12 tokens in half-width charts: no numbers


def test_train_it_yourself_forms_the_induction_head_with_the_pages_defaults():
    """Issue 21, defect 12: the defaults (induction, 2 heads, d_k = 16, lr 0.01, 1500 steps, seed 0) learn the task."""
    from attention_core.tasks import Trainer
    from attention_core.tiny import TinyConfig
    from views.shell.registry import SHARED, page

    defaults = {p.name: p.default for p in page("learn").params} | {"seed": next(p.default for p in SHARED if p.name == "seed")}
    task, layers = named_task(defaults["task"]), shipped.snapshot(defaults["task"]).config.layers
    config = TinyConfig(vocab=task.vocab, context=task.length, d_model=defaults["heads"] * defaults["d_k"], heads=defaults["heads"],
                        layers=layers, scaled=defaults["scaled"])
    trainer = Trainer(defaults["task"], config, every=100, lr=defaults["lr"], batch=32, seed=defaults["seed"])
    assert trainer.advance(defaults["steps"]).run().accuracy[-1] >= 0.95

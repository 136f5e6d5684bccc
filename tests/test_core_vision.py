"""The tiny vision transformer (attention_core.vision) against independent formulas: patches against a plain loop, the
gradients against finite differences, the rollout against a loop over layers; the shipped run reproduced from its seed."""

import json

import numpy as np
import pytest
from conftest import ROOT

from attention_core import vision
from attention_core.tiny import TinyParameters

SNAPSHOT = ROOT / "assets" / "snapshots" / "vision-2.npz"


def test_the_digits_are_the_uci_set_as_shipped():
    images, labels = vision.load_digits()
    assert images.shape == (1797, 8, 8) and images.dtype == np.uint8 and images.max() == 16 and images.min() == 0
    assert np.bincount(labels).tolist() == [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]
    train, held = vision.split(len(images))
    assert len(held) == 359 and not set(train) & set(held) and len(train) + len(held) == 1797


@pytest.mark.parametrize("size", vision.PATCH_SIZES)
def test_patches_are_the_image_cut_in_reading_order(size):
    image = np.arange(64).reshape(8, 8)
    cut = vision.patches(image, size)
    per = 8 // size
    expected = [[image[r * size + i, c * size + j] for i in range(size) for j in range(size)] for r in range(per) for c in range(per)]
    np.testing.assert_array_equal(cut, expected)
    assert cut.shape == (per * per, size * size)
    np.testing.assert_array_equal(vision.patches(np.stack([image, image + 1]), size)[1], cut + 1)


@pytest.mark.parametrize("size", [2, 4])
def test_a_patch_span_holds_the_pixels_that_patch_is_cut_from(size):
    image = np.arange(64, dtype=float).reshape(8, 8)
    cut = vision.patches(image, size)
    for index in range(cut.shape[0]):
        (r0, r1), (c0, c1) = vision.patch_span(index, size)
        assert r1 - r0 + 1 == size and c1 - c0 + 1 == size
        np.testing.assert_array_equal(image[r0 - 1:r1, c0 - 1:c1].ravel(), cut[index])
    assert vision.patch_span(14, 2) == ((7, 8), (5, 6))


def test_a_hand_typed_image_is_clamped_and_says_so():
    image = np.full((8, 8), 3.0)
    same, changed = vision.clamp_image(image)
    np.testing.assert_array_equal(same, image)
    assert not changed
    wild = image.copy()
    wild[0, 0], wild[1, 1], wild[2, 2] = 99, -4, np.nan
    clean, changed = vision.clamp_image(wild)
    assert changed and clean[0, 0] == 16 and clean[1, 1] == 0 and clean[2, 2] == 0
    emptied = image.copy()
    emptied[4, 4] = np.nan  # text typed in a number cell reaches the page as NaN: read as 0, and said
    clean, changed = vision.clamp_image(emptied)
    assert changed and clean[4, 4] == 0
    wild[5, 6] = 3.7
    cells = vision.clamped_cells(wild)  # each cell named, counted from 1, as the grid's headers count
    assert [(r, c, read) for r, c, _, read in cells] == [(1, 1, 16), (2, 2, 0), (3, 3, 0), (6, 7, 4)]
    assert [typed for *_, typed, _ in cells][::3] == [99, 3.7] and np.isnan(cells[2][2])
    assert vision.clamped_cells(image) == []


def test_the_gradients_match_finite_differences():
    """Every parameter of a small model, a few entries each: (loss(θ + h) − loss(θ − h)) / 2h."""
    images, labels = vision.load_digits()
    config = vision.vit_config(4, d_model=8, heads=2, layers=2)
    params = vision.init_vit(config, seed=3)
    batch, targets = images[:6], labels[:6]
    _, grads = vision.vit_gradients(params, batch, targets)
    rng = np.random.default_rng(0)
    for name, array in params.items():
        for _ in range(3):
            index = tuple(rng.integers(0, s) for s in array.shape)
            h = 1e-6
            up, down = {k: v.copy() for k, v in params.items()}, {k: v.copy() for k, v in params.items()}
            up[name][index] += h
            down[name][index] -= h
            numeric = (vision.vit_loss(TinyParameters(config, up), batch, targets)
                       - vision.vit_loss(TinyParameters(config, down), batch, targets)) / (2 * h)
            assert grads[name][index] == pytest.approx(numeric, rel=1e-5, abs=1e-8), (name, index)


def test_rollout_against_a_loop_over_layers():
    with np.load(SNAPSHOT) as data:
        params = TinyParameters(vision.vit_config(2), {k.removeprefix("param."): data[k] for k in data.files if k.startswith("param.")})
    images, _ = vision.load_digits()
    trace = vision.vit_forward(params, images[:3])
    n = 17
    for b in range(3):
        rolled = np.eye(n)
        for t in trace.layers:
            mean = sum(t.weights[b, h] for h in range(2)) / 2
            joint = np.array([[0.5 * mean[i, j] + (0.5 if i == j else 0) for j in range(n)] for i in range(n)])
            joint /= joint.sum(axis=1, keepdims=True)
            rolled = joint @ rolled
        np.testing.assert_allclose(vision.rollout(trace)[b], rolled[0, 1:], atol=1e-12)
    keep = vision.glimpse(trace, 4)
    assert keep.sum(axis=1).tolist() == [5, 5, 5] and keep[:, 0].all()
    chosen = np.flatnonzero(keep[0, 1:])
    assert set(chosen) == set(np.argsort(-vision.rollout(trace)[0])[:4])


def test_the_shipped_run_is_reproduced_and_beats_chance():
    """assets/snapshots/vision-2.npz trained again from its seed (seconds): the same weights and the same accuracy."""
    with np.load(SNAPSHOT) as data:
        settings = json.loads(str(data["settings"]))
        stored = {k.removeprefix("param."): data[k] for k in data.files if k.startswith("param.")}
        accuracy = data["accuracy"]
    run = vision.train_vit(size=settings["size"], steps=settings["steps"], lr=settings["lr"], batch=settings["batch"],
                           seed=settings["seed"], every=settings["every"])
    for name, array in stored.items():
        np.testing.assert_allclose(run.params[name], array, atol=1e-9, err_msg=name)
    np.testing.assert_allclose(run.accuracy, accuracy)
    images, labels = vision.load_digits()
    _, held = vision.split(len(images))
    chance = np.bincount(labels[held]).max() / len(held)
    assert accuracy[-1] >= 0.9 > 0.15 > chance
    full = vision.accuracy(run.params, images[held], labels[held])
    assert vision.glimpse_accuracy(run.params, images[held], labels[held], 16) == pytest.approx(full)
    assert vision.glimpse_accuracy(run.params, images[held], labels[held], 8) > vision.glimpse_accuracy(
        run.params, images[held], labels[held], 8, random=True) + 0.3  # looking where attention looks beats looking anywhere


"""An image as a sentence of patches, and a tiny vision transformer trained in NumPy on the UCI handwritten digits.

An 8 × 8 image (pixels 0–16) is cut into p × p patches in reading order (p = 2: 16 patches, p = 4: 4); each patch,
flattened to p² numbers ÷ 16, is a token. Shapes: B images, m patches, n = m + 1 tokens, d = d_model, P = p².
    x0 = [cls ; patches W_patch] + position                (B, n, d): [CLS] first, then the patches
    the tiny model's attention layers, no causal mask       (attention_core.tiny.run_layers)
    logits = x[:, 0] W_classify                             (B, 10): read from [CLS]
Parameters: "patch" (P, d), "cls" (d,), "position" (n, d), the layers' "l{l}.w_q" … as in the tiny model, "classify"
(d, 10). The loss is the mean cross-entropy of the logits against the digits; the backward pass is the tiny model's
(``layers_backward``) with the classifier's ends written out here; Adam is the tiny model's.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import frozen
from attention_core.tiny import (
    AdamState,
    LayerTrace,
    TinyConfig,
    TinyParameters,
    adam,
    adam_state,
    cross_entropy,
    layers_backward,
    run_layers,
)

DIGITS = Path(__file__).resolve().parent.parent / "assets" / "digits" / "digits.npz"
DIGITS_SHA256 = "87ff0c9e40dc7e2c0e34e7257799c2e3f3aec1a016363bb11cad869ec428a826"  # images bytes, then labels bytes
SIDE, CLASSES, MAX_PIXEL = 8, 10, 16
PATCH_SIZES = (2, 4)


def load_digits() -> tuple[NDArray, NDArray]:
    """The 1,797 UCI digits (assets/digits/README.md): images (N, 8, 8) uint8 in 0–16, labels (N,) uint8 in 0–9."""
    with np.load(DIGITS) as data:
        images, labels = data["images"], data["labels"]
    if hashlib.sha256(images.tobytes() + labels.tobytes()).hexdigest() != DIGITS_SHA256:
        raise ValueError(f"{DIGITS} is not the shipped UCI digits")
    return frozen((images, labels))


def split(count: int, held_out: float = 0.2, seed: int = 0) -> tuple[NDArray, NDArray]:
    """Indices of the training (count - h,) and the held-out images (h,), h = round(count x held_out), each sorted: a
    seeded shuffle, the last ``held_out`` share held out."""
    order = np.random.default_rng(seed).permutation(count)
    cut = count - round(count * held_out)
    return frozen((np.sort(order[:cut]), np.sort(order[cut:])))


def patches(images: NDArray, size: int) -> NDArray:
    """(B, 8, 8) or (8, 8) -> (B, m, size²) or (m, size²): size × size patches in reading order, each flattened row by row."""
    if size not in PATCH_SIZES:
        raise ValueError(f"patch size must be one of {PATCH_SIZES}")
    array = np.asarray(images, dtype=np.float64)
    one = array.ndim == 2
    batch = array[None] if one else array
    per = SIDE // size
    cut = batch.reshape(batch.shape[0], per, size, per, size).transpose(0, 1, 3, 2, 4).reshape(batch.shape[0], per * per, size * size)
    return frozen(cut[0] if one else cut)


def patch_span(index: int, size: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where patch ``index`` (0-based, reading order as ``patches`` cuts them) lies: its first and last pixel row and
    column, 1-based, e.g. patch 14 of 2 × 2 patches -> ((7, 8), (5, 6))."""
    per = SIDE // size
    row, col = divmod(index, per)
    return (row * size + 1, row * size + size), (col * size + 1, col * size + size)


def clamp_image(image: NDArray) -> tuple[NDArray, bool]:
    """An image typed by hand (8, 8) -> (the image the model reads (8, 8), whether anything had to change): NaN (an
    emptied cell, text) as 0, values clamped to 0–16 and rounded (a NaN counts as a change)."""
    typed = np.asarray(image, dtype=np.float64).reshape(SIDE, SIDE)
    cleaned = np.nan_to_num(typed, nan=0.0, posinf=MAX_PIXEL, neginf=0.0)
    clean = np.clip(np.rint(cleaned), 0, MAX_PIXEL)
    return frozen(clean), bool(np.any(clean != cleaned) or np.isnan(typed).any())


def clamped_cells(typed: NDArray) -> list[tuple[int, int, float, float]]:
    """The cells of an image typed by hand (8, 8) that ``clamp_image`` changes, row by row: (row, column) counted from 1,
    what was typed (NaN when empty or not a number) and what the model reads."""
    typed = np.asarray(typed, dtype=np.float64).reshape(SIDE, SIDE)
    clean, _ = clamp_image(typed)
    moved = np.isnan(typed) | (clean != typed)
    return [(int(r) + 1, int(c) + 1, float(typed[r, c]), float(clean[r, c])) for r, c in zip(*np.nonzero(moved))]


def vit_config(size: int, d_model: int = 32, heads: int = 2, layers: int = 2) -> TinyConfig:
    """The tiny model's config for patches of ``size``: ``vocab`` holds the classes, ``context`` the tokens ([CLS] + m)."""
    return TinyConfig(vocab=CLASSES, context=1 + (SIDE // size) ** 2, d_model=d_model, heads=heads, layers=layers)


def patch_size(config: TinyConfig) -> int:
    """The patch side p of a vision config: 8 / sqrt(m), m = context - 1 patches."""
    return SIDE // math.isqrt(config.context - 1)


def init_vit(config: TinyConfig, seed: int = 0) -> TinyParameters:
    """Gaussian initial parameters, reproducible, at the tiny model's scales: the patch embedding (P, d) and [CLS] (d,)
    give the stream a spread near 1, positions (n, d) std 1, projections and the classifier (d, 10) 1/sqrt(fan-in)."""
    rng = np.random.default_rng(seed)
    d, h, d_k, dim = config.d_model, config.heads, config.d_k, patch_size(config) ** 2
    arrays = {"patch": rng.normal(0, 1 / math.sqrt(dim) * 2.0, (dim, d)), "cls": rng.normal(0, 1.0, d),
              "position": rng.normal(0, 1.0, (config.context, d))}
    for layer in range(config.layers):
        for name in ("w_q", "w_k", "w_v"):
            arrays[f"l{layer}.{name}"] = rng.normal(0, 1 / math.sqrt(d), (h, d, d_k))
        arrays[f"l{layer}.w_o"] = rng.normal(0, 1 / math.sqrt(d), (h, d_k, d))
    arrays["classify"] = rng.normal(0, 1 / math.sqrt(d), (d, CLASSES))
    return TinyParameters(config, arrays)


@dataclass(frozen=True)
class VisionTrace:
    """The forward pass of B images: their patches, the stream's start, each layer, the final stream, the logits."""

    pieces: NDArray  # (B, m, P): the patches ÷ 16
    x0: NDArray  # (B, n, d)
    layers: tuple[LayerTrace, ...]
    x: NDArray  # (B, n, d)
    logits: NDArray  # (B, 10)

    def __post_init__(self) -> None:
        frozen(self)

    @property
    def cls_attention(self) -> NDArray:
        """(layers, B, H, m): each head's weights from [CLS] to the patches."""
        return frozen(np.stack([t.weights[:, :, 0, 1:] for t in self.layers]))


def vit_forward(params: TinyParameters, images: NDArray, keep: NDArray | None = None) -> VisionTrace:
    """Every intermediate for ``images`` (B, 8, 8) or (8, 8) in 0–16; ``keep`` (B, n) bool: the keys every query may
    see (all when None). x0 = [cls ; patches W_patch] + position, the layers unmasked, logits = x[:, 0] W_classify."""
    config = params.config
    batch = np.asarray(images, dtype=np.float64)
    pieces = patches(batch[None] if batch.ndim == 2 else batch, patch_size(config)) / MAX_PIXEL
    cls = np.broadcast_to(params["cls"], (pieces.shape[0], 1, config.d_model))
    x0 = np.concatenate([cls, pieces @ params["patch"]], axis=1) + params["position"]
    layers, x = run_layers(params, x0, causal=False, keep=keep)
    return VisionTrace(pieces, x0, layers, x, x[:, 0] @ params["classify"])


def vit_loss(params: TinyParameters, images: NDArray, labels: NDArray) -> float:
    """Mean cross-entropy of the logits (B, 10) of ``images`` (B, 8, 8) against their digits ``labels`` (B,)."""
    return cross_entropy(vit_forward(params, images).logits, np.asarray(labels, dtype=int))[0]


def vit_gradients(params: TinyParameters, images: NDArray, labels: NDArray) -> tuple[float, TinyParameters]:
    """The loss and d loss / d every parameter (same names and shapes) for ``images`` (B, 8, 8) and ``labels`` (B,): the
    classifier's end here (d loss / d logits = (softmax - one-hot) / B, read from [CLS] only), the layers by the tiny
    model's backward."""
    labels = np.asarray(labels, dtype=int)
    trace = vit_forward(params, images)
    value, probs = cross_entropy(trace.logits, labels)
    d_logits = probs.copy()
    d_logits[np.arange(len(labels)), labels] -= 1
    d_logits /= len(labels)
    grads: dict[str, NDArray] = {"classify": trace.x[:, 0].T @ d_logits}
    d_x = np.zeros_like(trace.x)  # d loss / d the final stream (B, n, d)
    d_x[:, 0] = d_logits @ params["classify"].T  # only [CLS] is read
    d_x0, layer_grads, _ = layers_backward(params, trace.layers, d_x)  # d loss / d the stream's start x0 (B, n, d)
    grads.update(layer_grads)
    grads["position"] = d_x0.sum(axis=0)
    grads["cls"] = d_x0[:, 0].sum(axis=0)
    grads["patch"] = np.einsum("bmp,bmd->pd", trace.pieces, d_x0[:, 1:])
    return value, TinyParameters(params.config, {name: grads[name] for name in params})


def accuracy(params: TinyParameters, images: NDArray, labels: NDArray, keep: NDArray | None = None) -> float:
    """The share of ``images`` (B, 8, 8) whose largest logit is their label (B,); ``keep`` (B, n) as in ``vit_forward``."""
    return float((vit_forward(params, images, keep).logits.argmax(axis=-1) == np.asarray(labels)).mean())


@dataclass(frozen=True)
class VisionRun:
    """A training run: steps watched, training loss and held-out accuracy there, [CLS]'s attention on probe images
    at each watched step (S, layers, probes, H, m), and the final parameters."""

    steps: NDArray
    loss: NDArray
    accuracy: NDArray
    attention: NDArray
    probes: NDArray  # indices of the probe images (held out)
    params: TinyParameters
    seconds: float

    def __post_init__(self) -> None:
        frozen(self)


def train_vit(size: int = 2, steps: int = 600, lr: float = 3e-3, batch: int = 64, seed: int = 0, every: int = 20,
              probes: int = 10) -> VisionRun:
    """Adam on mini-batches of the training images (seeded), the held-out accuracy and probe attention every ``every``
    steps: steps (S,), loss (S,), accuracy (S,), attention (S, layers, probes, H, m) and the final parameters."""
    import time

    began = time.perf_counter()
    images, labels = load_digits()
    train, held = split(len(images))
    params = init_vit(vit_config(size), seed)
    state: AdamState = adam_state(params)
    rng = np.random.default_rng(seed + 1)
    probe = held[[int(np.flatnonzero(labels[held] == digit)[0]) for digit in range(probes)]]  # one of each digit
    watched, losses, accuracies, attentions = [], [], [], []
    for step in range(steps + 1):
        if step % every == 0:
            watched.append(step)
            accuracies.append(accuracy(params, images[held], labels[held]))
            attentions.append(vit_forward(params, images[probe]).cls_attention)
        if step == steps:
            break
        chosen = rng.choice(train, size=batch, replace=False)
        value, grads = vit_gradients(params, images[chosen], labels[chosen])
        if step % every == 0:
            losses.append(value)
        params, state = adam(params, grads, state, lr=lr)
    losses.append(vit_loss(params, images[train[:512]], labels[train[:512]]))
    return VisionRun(np.array(watched), np.array(losses), np.array(accuracies), np.stack(attentions), probe, params,
                     time.perf_counter() - began)


def rollout(trace: VisionTrace) -> NDArray:
    """(B, m): [CLS]'s attention rollout over the patches (Abnar and Zuidema): per layer the heads' mean with the
    residual, ½ A + ½ I, multiplied through the layers; the [CLS] row, patches only."""
    rolled = None
    for t in trace.layers:
        joint = 0.5 * t.weights.mean(axis=1) + 0.5 * np.eye(t.weights.shape[-1])  # (B, n, n)
        with_residual = joint / joint.sum(axis=-1, keepdims=True)  # rows renormalised
        rolled = with_residual if rolled is None else with_residual @ rolled
    return frozen(rolled[:, 0, 1:])


def glimpse(trace: VisionTrace, k: int, rng: np.random.Generator | None = None) -> NDArray:
    """(B, n) bool: the keys a glimpse of ``k`` patches keeps ([CLS] and the k patches with the largest rollout, or k
    random patches when ``rng`` is given): hard attention, the rest masked."""
    rolled = rollout(trace)  # (B, m)
    b, m = rolled.shape
    order = np.argsort(-rolled, axis=1) if rng is None else np.argsort(rng.random((b, m)), axis=1)
    keep = np.zeros((b, m + 1), dtype=bool)
    keep[:, 0] = True
    np.put_along_axis(keep[:, 1:], order[:, :k], True, axis=1)
    return frozen(keep)


def glimpse_accuracy(params: TinyParameters, images: NDArray, labels: NDArray, k: int, random: bool = False, seed: int = 0) -> float:
    """The accuracy on ``images`` (B, 8, 8) with ``labels`` (B,) when every query sees only [CLS] and k patches: those
    the soft model's rollout ranks first, or k random ones (seeded)."""
    keep = glimpse(vit_forward(params, images), k, np.random.default_rng(seed) if random else None)
    return accuracy(params, images, labels, keep)

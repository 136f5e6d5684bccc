"""Train the default run of each task and save what the "Watch it learn" page scrubs through: assets/snapshots/<task>.npz
(curves, attention on a probe, closeness, and the final parameters the decoder generates with); and the √d_k experiment,
assets/snapshots/scaling.npz.

Reproducible: the same seeds give the same files (NumPy only, float64 training, saved as float32).
Also assets/snapshots/importance.json: the real model's four importance measures compared on the built-in sentences;
assets/snapshots/vision-<patch size>.npz: the tiny vision transformer trained on the UCI digits.
Usage: ``python scripts/make_snapshots.py [task ...|scaling|importance|vision]`` (about 3 minutes on a 2-core machine).
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from attention_core.tasks import TASKS, scaling_runs, train  # noqa: E402
from attention_core.tiny import TinyConfig  # noqa: E402

OUT = ROOT / "assets" / "snapshots"
# task -> (model width, heads, layers, steps, learning rate, batch): small enough to train in seconds, large enough to learn
DEFAULTS = {
    "copy": (16, 2, 1, 150, 2e-2, 16),
    "reverse": (32, 2, 1, 400, 2e-2, 16),
    "sort": (32, 2, 1, 800, 1e-2, 32),
    "induction": (32, 2, 2, 1500, 1e-2, 32),
    "text": (32, 2, 2, 1500, 1e-2, 32),
}
# The √d_k experiment: one layer, one head, d_model = d_k, on reversing (the answer is one exact key)
SCALING = {"task": "reverse", "d_ks": (4, 16, 64, 256), "seeds": (0, 1, 2), "steps": 400, "every": 20, "lr": 1e-2, "batch": 16}
WATCHES = 50  # snapshots per run
# The tiny vision transformer on the UCI digits (attention_core/vision.py): one run per patch size, the same settings
VISION = {"steps": 600, "lr": 3e-3, "batch": 64, "seed": 0, "every": 20}


def main(names: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (d_model, heads, layers, steps, lr, batch) in DEFAULTS.items():
        if names and name not in names:
            continue
        task = TASKS[name]()
        config = TinyConfig(vocab=task.vocab, context=task.length, d_model=d_model, heads=heads, layers=layers)
        began = time.perf_counter()
        params, run = train(name, config, steps, every=steps // WATCHES, lr=lr, batch=batch, seed=0)
        settings = {"task": name, "config": dataclasses.asdict(config), "steps": steps, "lr": lr, "batch": batch, "seed": 0}
        np.savez_compressed(OUT / f"{name}.npz", steps=run.steps, loss=run.loss, accuracy=run.accuracy,
                            weights=run.weights.astype(np.float32), closeness=run.closeness.astype(np.float32), probe=run.probe,
                            settings=np.array(json.dumps(settings)),
                            **{f"param.{key}": value.astype(np.float32) for key, value in params.items()})
        size = (OUT / f"{name}.npz").stat().st_size
        print(f"{name}: {steps} steps in {time.perf_counter() - began:.1f} s; loss {run.loss[0]:.2f} -> {run.loss[-1]:.3f}, "
              f"accuracy {run.accuracy[0]:.2f} -> {run.accuracy[-1]:.2f}, best closeness per layer "
              f"{[round(float(np.nanmax(c)), 2) for c in run.closeness[-1]]}; {size / 1024:.0f} kB")


    if not names or "vision" in names:
        from attention_core import vision

        for size in vision.PATCH_SIZES:
            run = vision.train_vit(size=size, **VISION)
            np.savez_compressed(OUT / f"vision-{size}.npz", steps=run.steps, loss=run.loss, accuracy=run.accuracy,
                                attention=run.attention.astype(np.float32), probes=run.probes,
                                settings=np.array(json.dumps(VISION | {"size": size, "seconds": round(run.seconds, 2)})),
                                **{f"param.{key}": value for key, value in run.params.items()})
            print(f"vision, {size} x {size} patches: {VISION['steps']} steps in {run.seconds:.1f} s; held-out accuracy "
                  f"{run.accuracy[0]:.3f} -> {run.accuracy[-1]:.3f}; {(OUT / f'vision-{size}.npz').stat().st_size / 1024:.0f} kB")

    if not names or "importance" in names:
        from attention_core import inside
        from attention_core.pretrained import MiniLM

        began = time.perf_counter()
        found = inside.correlations(MiniLM.load())
        (OUT / "importance.json").write_text(json.dumps({"sentences": list(inside.BUILT_IN),
                                                         "spearman": {m: [round(float(v), 6) for v in found[m]] for m in found}},
                                                        ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"importance: {len(inside.BUILT_IN)} sentences in {time.perf_counter() - began:.1f} s; mean Spearman ρ with "
              f"leave-one-out: {({m: round(float(np.nanmean(v)), 3) for m, v in found.items()})}")

    if not names or "scaling" in names:
        began = time.perf_counter()
        runs = scaling_runs(SCALING["task"], SCALING["d_ks"], SCALING["seeds"], SCALING["steps"], every=SCALING["every"],
                            lr=SCALING["lr"], batch=SCALING["batch"])
        np.savez_compressed(OUT / "scaling.npz", d_k=runs.d_k, seeds=runs.seeds, steps=runs.steps, loss=runs.loss,
                            accuracy=runs.accuracy, score_gradient=runs.score_gradient, settings=np.array(json.dumps(SCALING)))
        print(f"scaling: {time.perf_counter() - began:.0f} s; final loss (d_k x scaled/unscaled, mean of seeds)\n"
              f"{runs.loss[..., -1].mean(axis=-1).round(3)}\nfinal accuracy\n{runs.accuracy[..., -1].mean(axis=-1).round(2)}\n"
              f"score gradient at step 0\n{runs.score_gradient[..., 0].mean(axis=-1)}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Score every head of the real model on the built-in corpus and save it: assets/corpus/scores.npz (``make corpus``).

The scores (attention_core/corpus.py) of each of the 72 heads on each sentence of assets/corpus/sentences.txt, as
float32, with the SHA-256 of that file: the page and tests/test_core_corpus.py find a stale file by it, and the test
computes a sample of sentences again and matches these numbers. Prints the time, the verdict agreement and a few heads.
Usage: ``python scripts/make_corpus_scores.py`` (a few seconds on a 2-core machine).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from attention_core import corpus  # noqa: E402
from attention_core.pretrained import MiniLM  # noqa: E402


def main() -> None:
    model = MiniLM.load()
    sentences = corpus.corpus_sentences()
    began = time.perf_counter()
    scores = corpus.corpus_scores(model, sentences)
    seconds = time.perf_counter() - began
    corpus.save_scores(scores)
    again = corpus.load_scores()
    assert np.allclose(again.values, scores.values, atol=1e-6, equal_nan=True)
    agreed = corpus.agreement(scores)
    size = corpus.SCORES_FILE.stat().st_size
    print(f"{len(sentences)} sentences ({scores.lengths.min()}–{scores.lengths.max()} word pieces, median {np.median(scores.lengths):.0f}) "
          f"scored in {seconds:.1f} s; {corpus.SCORES_FILE.relative_to(ROOT)}: {size / 1024:.0f} kB")
    print(f"one-sentence verdict = corpus verdict: {agreed.rate:.1%} of {agreed.agrees.size:,} (sentence, head) pairs; "
          f"where one sentence names a pattern: {agreed.named_rate:.1%}")
    means = scores.means()
    for k, name in enumerate(corpus.SCORES):
        layer, head = np.unravel_index(np.nanargmax(means[k]), means[k].shape)
        print(f"  largest mean {name}: layer {layer + 1} head {head + 1}, {means[k][layer, head]:.3f} "
              f"(over {scores.counted(name)} sentences)")


if __name__ == "__main__":
    main()

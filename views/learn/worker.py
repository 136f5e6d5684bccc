"""A training worker process: reads (trainer, steps) pickles on stdin, writes the advanced trainer back on stdout.

Started by ``views.learn.data.train_live`` as ``python -m views.learn.worker``, one per live training, at a lower priority
than the server. A plain subprocess, not multiprocessing: Streamlit installs the page script as ``__main__``, which a
spawned or fork-served child would run again.
"""

from __future__ import annotations

import pickle
import sys

from attention_core.tasks import advance


def main() -> None:
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            trainer, steps = pickle.load(source)
        except EOFError:
            return
        pickle.dump(advance(trainer, steps), sink)
        sink.flush()


if __name__ == "__main__":
    main()

"""How many wrong join codes a browser and an address may try: a sliding window per key, in memory.

A code has 32⁶ ≈ 10⁹ values; guessing one must stay hopeless. Each wrong code is answered slowly (views/live), and a
browser (its cookie, so a reload does not start afresh) or an address that tried too many in the window waits. A
replica keeps its own counts; nginx sends a browser to the same replica every time (sticky cookies), so a browser's
limit holds, and an address's limit is per replica.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field

BROWSER_LIMIT = 5  # wrong codes per window from one browser
ADDRESS_LIMIT = 30  # … from one address (a class behind one school router shares it: generous)
WINDOW = 60.0  # seconds
MAX_KEYS = 10_000  # keys remembered at most (the oldest forgotten first): memory stays bounded


@dataclass
class Window:
    """Wrong tries per key within the last ``window`` seconds; ``limit`` of them make the key wait."""

    limit: int
    window: float = WINDOW
    tries: dict[str, deque] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def wait(self, key: str, now: float) -> float:
        """Seconds ``key`` must still wait before its next try (0: it may try now)."""
        with self.lock:
            recent = self._recent(key, now)
            return 0.0 if len(recent) < self.limit else self.window - (now - recent[0])

    def add(self, key: str, now: float) -> None:
        """One more wrong try by ``key`` at ``now``."""
        with self.lock:
            self._recent(key, now).append(now)
            self.tries[key] = self.tries.pop(key)  # the newest key last: the oldest is forgotten first
            while len(self.tries) > MAX_KEYS:
                self.tries.pop(next(iter(self.tries)))

    def _recent(self, key: str, now: float) -> deque:
        recent = self.tries.setdefault(key, deque())
        while recent and now - recent[0] >= self.window:
            recent.popleft()
        return recent


def waiting(windows: list[tuple[Window, str | None]], now: float) -> float:
    """The longest wait any of the (window, key) pairs asks for (a key None is not counted)."""
    return max((window.wait(key, now) for window, key in windows if key), default=0.0)

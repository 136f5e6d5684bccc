"""A short classroom in CI: several sessions open the shared link and move a slider at once (make load: 30)."""

import pytest

from scripts.load import LINK, measure

pytestmark = [pytest.mark.load, pytest.mark.xdist_group("browser-2")]  # starts a server: in the second browser group (Makefile)


def test_a_small_classroom_has_no_errors_and_bounded_memory():
    result = measure("app.py", 8, LINK, warm_model=True)
    print(result)
    assert result["errors"] == 0, result["first_error"]
    assert result["memory_mb"] <= 500
    assert result["redrawn"] == 8  # every session saw its page

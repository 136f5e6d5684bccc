"""AppTest for the lesson: every stop's answer computed, each stop's view opened without a notice, the guess asked
first and kept across pages and in its cookie, and cleared."""

from __future__ import annotations

import pytest
from conftest import ROOT, all_text, open_app

from attention_plot.text import LANGUAGES
from views.shell.registry import ALWAYS, BY_ID, PAGES, SHARED


def test_the_lesson_path_computes_every_answer_and_opens_real_views():
    from attention_plot.text import Texts
    from views.widgets.questions import SHORT, STOPS, answer_values

    assert 40 <= sum(stop.minutes for stop in SHORT) <= 50 and 55 <= sum(stop.minutes for stop in STOPS) <= 65
    assert {stop.page for stop in STOPS if stop.longer} == {"learn", "positions"}
    assert [stop.page for stop in STOPS][:3] == ["walkthrough", "walkthrough", "why_qkv"]  # the article's order
    for lang in LANGUAGES:
        T = Texts(lang)
        for stop in STOPS:
            values = answer_values(stop.id)
            options = [str(o).format(**values) for o in T.get(f"lesson.stops.{stop.id}.options")]
            template = str(T.get(f"lesson.stops.{stop.id}.options")[stop.correct])
            if "{" in template:  # a computed number is the right option, and the answer states it
                assert options[stop.correct] in T(f"lesson.stops.{stop.id}.answer", **values), (lang, stop.id)
            page = next(p for p in PAGES if p.id == stop.page)
            known = {p.name for p in SHARED + ALWAYS + page.params}
            assert set(stop.params) <= known, (stop.id, set(stop.params) - known)
    assert answer_values("four_steps")["weight"] == "0.88"


@pytest.mark.parametrize("stop", ["four_steps", "kinds", "scaling", "positions", "learn"])
def test_a_lesson_stop_opens_its_view_without_a_notice(stop):
    from views.widgets.questions import STOPS

    chosen = next(s for s in STOPS if s.id == stop)
    at = open_app(chosen.page, **chosen.params, present="1")
    served = {name: value for name, value in chosen.params.items() if name not in BY_ID[chosen.page].browser}  # the rest: the browser's
    assert not at.warning and dict(at.query_params) | served == dict(at.query_params)


def test_a_lesson_stop_asks_first_then_opens_absolute_links_and_keeps_the_guess_across_pages():
    """The view shows the answer, so it opens only once the class has guessed; its links are whole addresses (copied,
    or opened with Ctrl-click, in a new tab); the class's guess and the reveal outlive a visit to another page."""
    from urllib.parse import parse_qsl, urlsplit

    at = open_app("lesson")
    assert not at.get("link_button") and "The view opens once the class has guessed" in all_text(at)
    at.radio(key="lesson.four_steps.guess").set_value(1).run()
    links = [urlsplit(b.proto.url) for b in at.get("link_button")]
    assert [link.scheme for link in links] == ["http", "http"] and all(link.netloc for link in links)
    assert [dict(parse_qsl(link.query)) for link in links] == [{"walk": "textbook", "step": "3", "lang": "en"},
                                                                 {"walk": "textbook", "step": "3", "lang": "en", "present": "1"}]
    at.toggle(key="lesson.four_steps.reveal").set_value(True).run()
    assert any("0.88" in s.value for s in at.success)
    at.switch_page(str(ROOT / "pages" / "walkthrough.py")).run()
    at.switch_page(str(ROOT / "pages" / "lesson.py")).run()
    assert at.radio(key="lesson.four_steps.guess").value == 1 and at.toggle(key="lesson.four_steps.reveal").value
    assert any("0.88" in s.value for s in at.success)
    assert [urlsplit(b.proto.url).path for b in at.get("link_button")][:2] == ["/", "/"]


def test_the_lesson_guesses_read_back_as_written_and_a_tampered_cookie_is_dropped():
    from views.lesson import format_guesses, parse_guesses

    guesses = {"four_steps": (1, True), "why_qkv": (0, False), "learn": (2, True)}
    assert format_guesses(guesses) == "four_steps.1.r-why_qkv.0-learn.2.r"
    assert parse_guesses(format_guesses(guesses)) == guesses
    assert parse_guesses("") == {} and parse_guesses("nope.1-four_steps.x-why_qkv.99-kinds.-1-rnn.2.q-<script>") == {}
    assert parse_guesses("cross.1.r-cross.2") == {"cross": (2, False)}  # the last one counts


def test_clearing_the_lesson_asks_every_stop_again():
    at = open_app("lesson")
    at.radio(key="lesson.four_steps.guess").set_value(1).run()
    at.toggle(key="lesson.four_steps.reveal").set_value(True).run()
    at.radio(key="lesson.rnn.guess").set_value(0).run()
    assert at.button(key="lesson-clear").label == "Clear every stop's guess and answer"  # in its pop-over: a second click
    at.button(key="lesson-clear").click().run()
    assert at.radio(key="lesson.four_steps.guess").value is None and at.radio(key="lesson.rnn.guess").value is None
    assert not at.get("link_button") and not at.success

"""The state mechanism where it meets Streamlit's reruns: interrupted runs write nothing, echoes of the session's own
URL never overwrite what the screen shows, and a part that reruns alone keeps every value."""

from __future__ import annotations

from streamlit.runtime.scriptrunner_utils import exceptions

from views.shell.private import StopException


def test_the_private_exception_the_app_relies_on_is_still_there():
    """app.py tells a page that stopped early (st.stop) from one a newer click interrupted: fails loudly on upgrade."""
    assert StopException is exceptions.StopException and issubclass(exceptions.RerunException, exceptions.ScriptControlException)
    assert not issubclass(exceptions.RerunException, StopException)


def test_a_widget_rerun_carrying_an_older_url_keeps_the_value_on_screen(app):
    """The slider race: the browser's URL still says d_k=4 while the slider already moved to 6."""
    at = app("walkthrough", text="the cat sat", step=2)
    old = dict(at.query_params)
    at.slider(key="shared.d_k").set_value(5).run()
    assert at.query_params["d_k"] == "5"
    for name, value in old.items():  # the next rerun arrives with the URL from before the first one
        at.query_params[name] = value
    at.slider(key="shared.d_k").set_value(6).run()
    assert at.slider(key="shared.d_k").value == 6 and at.query_params["d_k"] == "6"


def test_a_link_opened_by_hand_still_wins(app):
    at = app("walkthrough", text="the cat sat", d_k=3)
    assert at.slider(key="shared.d_k").value == 3
    at.query_params["d_k"] = "7"  # a URL this session never wrote: someone pasted a link
    at.run()
    assert at.slider(key="shared.d_k").value == 7


def test_the_article_example_then_back_to_random_keeps_the_head_in_the_browsers_hands(app):
    """Issue 21, defect 1: the walk changes on the server, the head stays the browser's (tests/test_browser_app.py steps)."""
    from conftest import payload

    at = app("walkthrough", text="the cat sat on the mat", heads=2, step=3)
    token = payload(at)[0]["token"]
    at.session_state["walkthrough.walk"] = "textbook"
    at.run()
    assert payload(at)[0]["variant"] == "textbook" and payload(at)[0]["token"] == token and "head" not in at.query_params
    at.session_state["walkthrough.walk"] = "random"
    at.run()
    assert not at.exception and payload(at)[0]["heads"] == 2 and payload(at)[0]["token"] == token


def test_a_page_that_needs_more_tokens_opens_with_the_long_example_in_the_students_language(app):
    """Issue 21, item 6: no "too few tokens" notice on a page's first view; a linked or typed sentence is kept."""
    from views.shell.registry import LONG_EXAMPLES

    for lang in ("en", "zh"):
        at = app("types", lang=lang)
        assert at.text_input(key="shared.text").value == LONG_EXAMPLES[lang] and not at.info, [i.value for i in at.info]
    linked = app("types", text="Thinking Machines")
    assert linked.text_input(key="shared.text").value == "Thinking Machines" and linked.button(key="use-long-example")
    from conftest import payload

    walk = app("walkthrough")
    assert payload(walk)[0]["sentence"]["text"] == "Thinking Machines"  # the article's sentence where it is enough


def test_multi_head_opens_with_several_heads_and_never_overrides_a_choice(app):
    """Issue 21, item 6: one head hides multi-head's point; a linked or moved head count stays as chosen."""
    at = app("multihead")
    assert at.slider(key="shared.heads").value == 4 and at.query_params["heads"] == "4"
    at.slider(key="shared.heads").set_value(1).run()
    at.run()
    assert at.slider(key="shared.heads").value == 1 and at.query_params["heads"] == "1"  # the student's choice stays
    assert app("multihead", heads=1).slider(key="shared.heads").value == 1  # a link's value too
    assert app("walkthrough").query_params["heads"] == "1"  # the article's single head where it is the point


def test_heads_lent_to_multi_head_come_back_when_the_student_leaves_it(app):
    """Walkthrough (one head) → multi-head (opens with 4) → walkthrough: one head again, as the student left it; a count
    moved on multi-head is the student's and stays."""
    from pathlib import Path

    pages = Path(__file__).resolve().parent.parent / "pages"
    at = app("walkthrough")
    assert at.slider(key="shared.heads").value == 1
    at.switch_page(str(pages / "multihead.py")).run()
    assert at.slider(key="shared.heads").value == 4
    at.switch_page(str(pages / "walkthrough.py")).run()
    assert at.slider(key="shared.heads").value == 1 and at.query_params["heads"] == "1"
    at.switch_page(str(pages / "multihead.py")).run()
    assert at.slider(key="shared.heads").value == 4  # lent again on the way back
    at.slider(key="shared.heads").set_value(3).run()
    at.switch_page(str(pages / "walkthrough.py")).run()
    assert at.slider(key="shared.heads").value == 3  # moved by the student: kept


def test_a_choice_the_link_names_wrongly_is_said_by_its_name_on_the_page(app):
    """A tampered link's notice names the option used as the page does (a tester read "using the default h100",
    "default previous", "built_in"), in both languages; every option of a Choice with labels has its name."""
    from attention_plot.text import Texts
    from views.shell.params import Choice
    from views.shell.registry import PAGES

    for lang in ("en", "zh"):
        T = Texts(lang)
        for page in PAGES:
            for param in page.params:
                if isinstance(param, Choice) and param.labels:
                    assert all(T(param.labels.format(option)) for option in param.options), (page.id, param.name)
        traffic = "\n".join(w.value for w in app("positions", section="traffic", gpu="tpu", lang=lang).warning)
        assert T("positions.traffic.gpus.h100") in traffic and "h100" not in traffic, traffic
        corpus = "\n".join(w.value for w in app("real", section="corpus", measure="nope", corpus="mine", lang=lang).warning).replace("\\", "")
        assert T("corpus.scores.previous") in corpus and T("corpus.sources.built_in") in corpus, corpus
        assert "built_in" not in corpus and "default previous." not in corpus, corpus


def test_a_number_between_two_whole_numbers_is_not_said_to_be_out_of_range(app):
    """head=1.5 is inside 1–12 but names no head: the notice says it is not a whole number (it said out of range)."""
    said = "\n".join(w.value for w in app("real", head="1.5", lang="en").warning)
    assert "not a whole number" in said and "out of range" not in said, said
    said = "\n".join(w.value for w in app("real", head="99", lang="en").warning)
    assert "out of range (1–12)" in said, said

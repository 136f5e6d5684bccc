"""What every page starts with: its view (settings, texts, layout, its own values), title, introduction and notices."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, NoReturn
from urllib.parse import urlencode

import streamlit as st

from attention_core import tokenize
from attention_plot.text import DEFAULT_LANGUAGE, Texts
from views.shell import messages, process, registry, state
from views.shell.params import Int
from views.shell.registry import LONG_EXAMPLES, SHARED, SHARED_BY_NAME, Page, page

OPENED_BY_APP = "shell.page"  # set by app.main on every run: the page it opened
FULL_RUN = "shell.full_run"  # True while app.main runs the whole page; False while a part (page.part) reruns alone


@dataclass(frozen=True)
class Settings:
    """The shared settings as they are now (the sidebar shows those the page uses); ``views.widgets.cache`` turns them
    into the core's options beside the cached call."""

    text: str
    d_model: int  # width of each token vector
    d_k: int  # width of each head's queries and keys (and values)
    heads: int
    score: str
    mode: str
    window: int  # local modes: keys within +-window of the centre
    pe: bool  # add the sinusoidal positional encoding
    seed: int
    lang: str
    present: bool  # presenter mode


@dataclass(frozen=True)
class Layout:
    """How a page is drawn: on a screen, with every explanation; or on a projector, the current step only, large."""

    name: str
    explains: bool  # titles, introductions and explanations in full (else one caption)
    shows_projections: bool  # W_Q beside X W_Q, E and PE beside X (else only the products)
    side_by_side: bool  # Q, K and V (concat and output) in one row
    extras: bool  # controls and sections around the steps: focus, quiz, hands-on, downloads
    chart_font: int  # px of cell numbers, tick labels and colour bars


SCREEN = Layout("screen", explains=True, shows_projections=True, side_by_side=False, extras=True, chart_font=13)
PROJECTOR = Layout("projector", explains=False, shows_projections=False, side_by_side=True, extras=False, chart_font=17)


@dataclass(frozen=True)
class View:
    """One page as the student sees it now: the page, its settings and texts, and its layout."""

    page: Page
    settings: Settings
    T: Texts
    layout: Layout

    def key(self, name: str) -> str:
        """The session and widget key of one of the page's own values."""
        return state.key(self.page.id, name)

    def widget(self, name: str, label: str, *, into: Any = st, **display: Any) -> Any:
        """Draw the widget of the value ``name`` in ``into`` and return its value: the page's own value of that name, else
        the shared setting. Its bounds, step and options are the registry's (``Param.widget``; ``lo``, ``hi`` or
        ``options`` narrow them where only this run knows them); ``label`` and ``display`` (help, format_func) the page's."""
        own = self.page.param(name)
        param, key = (own, self.key(name)) if own is not None else (SHARED_BY_NAME[name], state.key("shared", name))
        labels = getattr(param, "labels", "")
        if labels and "format_func" not in display:  # the options by the names the registry gives them (Choice.labels)
            display["format_func"] = lambda option: self.T(labels.format(option))
        return param.widget(into, label, key, **display)

    def __getitem__(self, name: str) -> Any:
        return st.session_state[self.key(name)]

    def set(self, name: str, value: Any) -> None:
        st.session_state[self.key(name)] = value

    def clamp(self, name: str, lo: int, hi: int) -> int:
        """Keep a value inside [lo, hi] (e.g. a token position when the sentence got shorter); returns it."""
        try:  # a widget may hand back its value as text (a select box's option across a layout switch)
            current = int(float(self[name]))
        except (TypeError, ValueError):
            current = lo
        value = min(max(current, lo), max(lo, hi))
        own = self.page.param(name)
        if isinstance(own, Int):  # the view offers what is inside both its bounds and the registry's
            lo, hi = max(lo, own.lo), min(hi, own.hi)
        # A link's value this view moved, or one the registry's wider bounds already moved (top_k = 0 made 1 of 1–48 where a
        # six-token sentence offers 1–6): its notice names the value used and the range this view offers.
        state.page_changed(self.key(name), value, f"{lo}–{max(lo, hi)}")
        self.set(name, value)
        return value


def settings() -> Settings:
    return Settings(**{f.name: state.shared(f.name) for f in fields(Settings)})


def view(page_id: str) -> View:
    """The current view of a page (no drawing)."""
    current = settings()
    return View(page(page_id), current, Texts(current.lang), PROJECTOR if current.present else SCREEN)


def start(page_id: str, intro: Callable[[View], str] | None = None, own_intro: bool = False) -> View:
    """Open a page: its title, its introduction (on a screen; ``intro`` picks its text's key for this reader; ``own_intro``:
    the page draws it itself) and the link values that could not be used."""
    if st.session_state.get(OPENED_BY_APP) != page_id:  # run by Streamlit's legacy pages/ handling, not by app.py:
        process.start()  # pages/ is st.navigation's from now on (a server not started by scripts/run.py), and
        st.rerun()  # the rerun goes through app.py
    current = view(page_id)
    T = current.T
    st.title(T(f"{page_id}.title"), anchor=page_id.replace("_", "-"))  # not made from its words: Chinese ones drop out
    if current.layout.explains and not own_intro:
        st.markdown(T(intro(current) if intro else f"{page_id}.intro"))
    slot = st.session_state[NOTICES_SLOT] = st.empty()  # drawn now, and again after the page ran (it may move a value)
    with slot.container():
        messages.show_notices(state.notices(current.page), T)
    missing = st.session_state.pop(state.MISSING_PAGE, None)
    if missing is not None:
        show_missing_page(*missing, T)
    offer_longer_sentence(current)
    return current


def show_missing_page(path: str, values: dict[str, str], T: Texts) -> None:
    """An address that is not a page: say so, and name the page it most likely meant (registry.nearest_page) with a link
    that keeps the address's values (``/real?section=corpus`` → real-model's corpus section)."""
    nearest = registry.nearest_page(path)
    if nearest is None:
        st.warning(T("common.notices.not_found", path=messages.plain(path)), icon=":material/link_off:")
        return
    meant, section = nearest
    values = {**values, "section": section} if section and "section" not in values else values
    address = f"/{meant.path}" + (f"?{urlencode(values)}" if values else "")
    st.warning(T("common.notices.not_found_nearest", path=messages.plain(path), page=messages.plain(T(f"{meant.id}.nav")),
                 address=messages.plain(address[:120])), icon=":material/link_off:")
    st.page_link(meant.file_path, label=T("common.notices.open_nearest", page=T(f"{meant.id}.nav")),
                 icon=":material/arrow_forward:", query_params=values)


def stop() -> NoReturn:
    """Stop the page here (``st.stop``: an empty sentence, a missing model), its link written first (on the page on screen,
    as at the end of a run): once Streamlit stops a run, nothing more can be written, the link and the session included."""
    opened = st.session_state.get(OPENED_BY_APP)
    if opened is not None and state.on_screen(page(opened)):
        state.publish(page(opened))
    st.stop()


def _shell(page_: Page) -> tuple:
    """What the shell around a page drew from: the settings, the sidebar's controls and fixed quantities."""
    values = state.page_values(page_)
    return settings(), page_.shared_names(values), page_.fixed_quantities(values)


def part(draw: Callable[..., Any], reruns_page_when: Callable[[View], object] | None = None) -> Callable[..., Any]:
    """``draw(view, *args)`` as a part of the page that reruns alone (``st.fragment``) when one of its own controls changes.

    A step, the focused word or a hands-on edit then reruns this part only: not the navigation, the
    sidebar, the link's arrival or the page's other parts. The part writes its values to the URL itself.
    ``args`` are those of the last full run. The whole page reruns instead when one of the part's controls
    changed what is drawn outside it: the shell (the sidebar of the article's example; presenter mode left
    from the projector's pop-over) or ``reruns_page_when(view)`` (the walk, for the focus section below).
    Returns what ``draw`` returns, on a full run.
    """

    @st.fragment
    def rerun_alone(view: View, mark: int, shell: tuple, outside: object, *args: Any) -> Any:
        alone = not st.session_state.get(FULL_RUN, False)  # on a full run the shell was just drawn and publishes itself
        if alone and (_shell(view.page) != shell or (reruns_page_when is not None and reruns_page_when(view) != outside)):
            st.rerun()
        if alone:
            state.keep_values()  # as app.main does: a value whose widget this part stops drawing is kept
            restart_part(mark)
        result = draw(view, *args)
        if alone:
            state.publish(view.page)
        return result

    @functools.wraps(draw)
    def run(view: View, *args: Any) -> Any:
        outside = None if reruns_page_when is None else reruns_page_when(view)
        return rerun_alone(view, len(shown_matrices()), _shell(view.page), outside, *args)

    return run


# --- This run: what it drew, at which size ---


MATRICES = "matrices_on_this_page"


def shown_matrices() -> list:
    """The matrices drawn in this run (title, matrix, row labels, column labels), for the page's CSV download."""
    return st.session_state.setdefault(MATRICES, [])


FONT = "chart_font_this_run"
LANGUAGE = "chart_language_this_run"


def start_run(font: int, lang: str) -> None:
    """Forget the previous run's matrices; draw this run's charts with numbers and labels of ``font`` px and their texts
    (axis titles, tooltips, text alternatives) in ``lang``: a chart takes both from the run, never from its caller."""
    st.session_state[MATRICES] = []
    st.session_state[FONT] = font
    st.session_state[LANGUAGE] = lang
    st.session_state.pop(messages.SHOWN, None)


def run_font() -> int:
    """This run's chart font in px (the screen's before a run started)."""
    return st.session_state.get(FONT, SCREEN.chart_font)


def run_texts() -> Texts:
    """This run's texts, in the language its charts speak (English before a run started)."""
    return _texts(st.session_state.get(LANGUAGE, DEFAULT_LANGUAGE))


@functools.cache
def _texts(lang: str) -> Texts:
    return Texts(lang)


def restart_part(mark: int) -> None:
    """A part of the page reruns alone (``page.part``): forget the matrices it drew last time (those from ``mark`` on,
    the list's length when the part began in the last full run) and the messages already shown."""
    del shown_matrices()[mark:]
    st.session_state.pop(messages.SHOWN, None)


NOTICES_SLOT = "shell.notices_slot"


def show_link_notices(page: Page, T: Texts) -> None:
    """The link's values that could not be used, with the values finally used, at the top of the page."""
    slot = st.session_state.pop(NOTICES_SLOT, None)
    if slot is not None:
        with slot.container():
            messages.show_notices(state.notices(page), T)


def _use_long_example(example: str) -> None:
    st.session_state[state.key("shared", "text")] = example


LENT_HEADS = "fitted.lent_heads"


def fit_defaults(page_: Page) -> None:
    """A page whose point the untouched defaults hide opens with values that show it (its first view shows its point):
    - more tokens than the default sentence ("Thinking Machines", 2): the long example of the student's language;
    - several heads where one head is the default (multi-head): ``page.opens_with_heads``, lent while it is open: a
      student who leaves without moving them finds one head again elsewhere.
    A value typed, moved or linked is never replaced. Called before the sidebar draws its controls."""
    defaults = {p.name: p.default for p in SHARED}
    shared = page_.shared_names(state.page_values(page_))
    text, heads = state.key("shared", "text"), state.key("shared", "heads")
    if page_.min_tokens and st.session_state.get(text) == defaults["text"] and not state.was_linked("text") and "text" in shared:
        st.session_state[text] = LONG_EXAMPLES[state.shared("lang")]
    fitted = st.session_state.get(state.FITTED, frozenset())
    lent = st.session_state.get(LENT_HEADS)  # (page, heads before, heads it opened with)
    if lent and lent[0] != page_.id:  # left without moving them: the other pages get their heads back
        del st.session_state[LENT_HEADS]
        if st.session_state.get(heads) == lent[2]:
            st.session_state[heads] = lent[1]
            fitted = st.session_state[state.FITTED] = fitted - {lent[0]}
    if page_.opens_with_heads and page_.id not in fitted and "heads" in shared:
        st.session_state[state.FITTED] = fitted | {page_.id}
        if st.session_state.get(heads) == defaults["heads"] and not state.was_linked("heads"):
            st.session_state[heads] = page_.opens_with_heads
            st.session_state[LENT_HEADS] = (page_.id, defaults["heads"], page_.opens_with_heads)


def offer_longer_sentence(view: View) -> None:
    """When the sentence is too short to show the page's point (2 tokens: soft = hard = local), say so; one click fixes it."""
    n = len(tokenize(view.settings.text))
    if "text" in view.page.shared_names(state.page_values(view.page)) and 0 < n < view.page.min_tokens:
        example = LONG_EXAMPLES[view.settings.lang]
        st.info(view.T("common.notices.short", n=n, needed=view.page.min_tokens), icon=":material/short_text:")
        st.button(view.T("common.notices.use_example", example=example), on_click=_use_long_example, args=(example,),
                  key="use-long-example")


def section_heading(text: str) -> None:
    """The chosen section's name under the section control: the outline's level 2 (h2). A projector, where the control
    already shows it, keeps it for screen readers only (assets/presenter.css), so the section's first figure stays on
    the first screen."""
    with st.container(key="section-heading"):
        st.header(text, anchor=False)


FOCUS = "shell.focus"  # (the part the focus goes to, a number that grows with each wish, only if the focus was lost)


def want_focus(part: str, lost_only: bool = False) -> None:
    """A button's callback whose button goes away or moves (a class started, a question opened, an answer revealed):
    the focus goes to ``part`` once it is drawn (WCAG 2.4.3), not to the page's body. ``part``: a ``focus_here`` name.
    ``lost_only``: a change nobody on this page pressed for (a phone's question the teacher closed): the focus moves
    only if it was lost (on the page's body, its element gone), never away from a control in use."""
    st.session_state[FOCUS] = (part, st.session_state.get(FOCUS, ("", 0))[1] + 1, lost_only)


def focus_here(part: str) -> None:
    """Where ``part`` is drawn: when a callback asked for it, a hidden mark that the page script (assets/components/
    shell/focus.js) follows once per wish, putting the focus on the first heading (or message) drawn after it."""
    wish = st.session_state.get(FOCUS)
    if wish and wish[0] == part:
        lost = " data-focus-lost" if len(wish) > 2 and wish[2] else ""
        st.html(f'<span class="attention-focus" hidden data-focus="{wish[1]}"{lost}></span>')

"""One mechanism for state, for shared settings and page parameters alike: URL <-> session <-> widget.

- Every value lives in ``st.session_state`` under ``<scope>.<name>`` (scope: ``shared`` or a page id);
  the widget that edits it uses that same key, so widget, session and value are one thing. ``keep_values``
  keeps every one across pages, and the values a page keeps that no link holds (``keep``: the lesson's guesses).
- ``arrive`` reads what the URL says that this session did not write itself (a link, opened once),
  with a ``Notice`` for every value that had to change (clamped, nearest choice, not understood, cut).
- ``publish`` writes back the values the current page uses, and only those: a link holds values
  a teacher can read (``d_k=64&tau=0.5``); once per run, when it ends (a link opened also at once).
- The values a page's step component keeps (``Page.browser``: the step, the head, the focused word) are the
  browser's: it writes them to the link itself, and ``publish`` leaves them out. A link that sets them again (opened,
  or Back to an older address) changes ``view_token``, and the browser then takes the server's values.

Streamlit's own ``bind="query-params"`` drops a value it cannot use without a word, removes values
equal to the default, and is invisible to AppTest; this module does the same job with notices.
"""

from __future__ import annotations

import secrets
import urllib.parse

import streamlit as st

from attention_plot.text import Texts
from views.shell.params import Choices, Notice, Param, Text
from views.shell.registry import ALWAYS, OLD_LINK_NAMES, PAGES, SHARED, Page

BY_SCOPE = {"shared": SHARED + ALWAYS} | {page.id: page.params for page in PAGES}
WRITTEN = "url.written"  # the links this session wrote, newest last: a URL among them is an echo, not a link opened
FINISHED = "url.finished"  # the page of this session's last run that finished (the page on screen)
NAVIGATING = "url.navigating"  # a page the student chose whose run has not finished yet
KEPT_LINKS = 64
NOT_FOUND = "not_found"  # scripts/paths.py sends an unknown page's address to /?not_found=<path>
MISSING_PAGE = "url.missing_page"  # that path and the link's other values, until the page has said so once
LINKED = "url.linked"  # the names of the values a link chose (page.fit_defaults never replaces those)
FITTED = "url.fitted"  # the pages that opened with a fitted default once (never again: a choice the student made stays)
NOTICES = "url.notices"  # (state key, value used, Notice) for values changed on arrival
NONCE = "url.nonce"  # this session's random name: a duplicated tab (a session of its own) never takes another's view
SERIALS = "url.view_serials"  # per page: how many times a link set the values the browser keeps (Page.browser)
KEPT = "state.kept"  # the session keys of values kept across pages that are no parameter (``keep``)
RESUMED = "url.resumed"  # this session went on from a tab's earlier session (the server restarted): ``resume``


def was_linked(name: str) -> bool:
    """Did a link opened in this session choose the value ``name`` (``text``, ``heads``)?"""
    return name in st.session_state.get(LINKED, ())


def key(scope: str, name: str) -> str:
    """The session (and widget) key of a value: ``shared.d_k``, ``types.tau``."""
    return f"{scope}.{name}"


def shared(name: str):
    return st.session_state[key("shared", name)]


def keep_values() -> None:
    """Keep every value across reruns and pages, also while its widget is not drawn (Streamlit forgets those): every
    parameter's, and those a page asked to ``keep``."""
    names = [key(scope, param.name) for scope, params in BY_SCOPE.items() for param in params]
    for name in (*names, *sorted(st.session_state.get(KEPT, ()))):
        if name in st.session_state:
            st.session_state[name] = st.session_state[name]


def keep(*names: str) -> None:
    """Keep the values under these session keys as ``keep_values`` keeps the parameters': across reruns and pages, also
    while their widgets are not drawn. For a page's values that no link holds (the lesson's guesses and reveals)."""
    st.session_state[KEPT] = frozenset(st.session_state.get(KEPT, ())) | set(names)


def page_values(page: Page) -> dict[str, object]:
    """The page's own values and the shared ones, by URL name (the page's own win on a shared name)."""
    values = {p.name: st.session_state.get(key("shared", p.name), p.default) for p in SHARED + ALWAYS}
    values |= {p.name: st.session_state.get(key(page.id, p.name), p.default) for p in page.params}
    return values


def browser_language() -> str:
    """The app's language for the browser's (``navigator.language``, e.g. "zh-CN" -> "zh"); English otherwise."""
    try:
        locale = st.context.locale or ""
    except (AttributeError, RuntimeError, KeyError):  # AppTest and bare runs have no browser context
        locale = ""
    return "zh" if locale.lower().startswith("zh") else "en"


def _default(param: Param, scope: str, T: Texts) -> object:
    if isinstance(param, Text) and scope != "shared":  # a text from assets/, e.g. cross.defaults.{pair}_source
        values = {p.name: st.session_state.get(key(scope, p.name), p.default) for p in BY_SCOPE[scope]}
        return T(param.default.format(**values))
    return param.default


def _stored(param: Param, value: object) -> object:
    """A value as its widget holds it (a multiselect holds a list)."""
    return list(value) if isinstance(param, Choices) else value


def is_old_link(params: dict[str, str]) -> bool:
    """Links made before values replaced codes held every shared setting, on every page."""
    return all(name in params for name in OLD_LINK_NAMES)


def translate_old_link(page: Page, params: dict[str, str]) -> dict[str, str]:
    """An old link's codes as today's values (``dk=12`` -> ``d_k=4096``, ``example=1`` -> ``walk=textbook``)."""
    translated = dict(params)
    for param in page.params:
        for old_name, convert in param.legacy.items():
            if old_name in params:
                if old_name != param.name:
                    translated.pop(old_name, None)
                value = convert(params[old_name])
                if value is not None:
                    translated[param.name] = value
    return translated


def written_links() -> list[dict[str, str]]:
    return st.session_state.get(WRITTEN, [])


def is_echo(params: dict[str, str]) -> bool:
    """Is this URL one this session wrote itself? A rerun that a widget started carries the URL as the browser last
    had it, which may be older than the screen (a sentence typed, then a page clicked; a slider moved twice quickly)."""
    return params in written_links()


def arrive(page: Page) -> bool:
    """Read the URL's values that this session did not write (a link opened) into the session, once.

    A URL this session wrote itself (``is_echo``) is never read back: what the screen shows wins over it. Returns
    whether the URL was not one this session wrote (a link opened or typed, the session's first run).
    """
    params = st.query_params.to_dict()
    written = written_links()[-1] if written_links() else {}
    echo = is_echo(params)
    incoming = {} if echo else {name: value for name, value in params.items() if written.get(name) != value}
    if incoming:
        st.session_state[LINKED] = frozenset(st.session_state.get(LINKED, ())) | set(incoming)
    if set(incoming) & set(page.browser):
        link_set_view(page.id)
    if NOT_FOUND in incoming:
        st.session_state[MISSING_PAGE] = (incoming[NOT_FOUND][:200], {k: v for k, v in params.items() if k != NOT_FOUND})
    if incoming and is_old_link(params):
        incoming = translate_old_link(page, incoming)
    notices = [n for n in st.session_state.get(NOTICES, []) if st.session_state.get(n[0]) == n[1]]
    if key("shared", "lang") not in st.session_state and "lang" not in incoming:
        incoming["lang"] = browser_language()  # a first visit follows the browser; a link's lang= wins
    lang = incoming.get("lang", st.session_state.get(key("shared", "lang"), "en"))
    T = Texts(lang)
    own = {param.name for param in page.params}  # a name the page owns is never a shared setting's on this page
    for scope, params_of_scope in (("shared", SHARED + ALWAYS), (page.id, page.params)):
        for param in params_of_scope:
            name = key(scope, param.name)
            if param.name in incoming and (scope == page.id or param.name not in own):
                value, notice = param.read(incoming[param.name])
                st.session_state[name] = value = _stored(param, value)
                notices = [n for n in notices if n[0] != name]
                if notice is not None:
                    notices.append((name, value, notice))
            elif name not in st.session_state:
                st.session_state[name] = _stored(param, _default(param, scope, T))
    st.session_state[NOTICES] = notices
    return not echo


def resume(resumed: object) -> None:
    """A new session (the server restarted) that a tab's page script asked to go on from what it shows: ``resumed`` is
    {"query": the address the tab shows}. Streamlit's own copy of the address, which a new session's runs carry, can be
    older than the tab's (the step and the views the browser keeps are written there by the page's script): the new
    session reads the tab's address instead, as a link opened, so the screen, the link and the next move agree. Once,
    before the session wrote a second link: Streamlit's own rerun on reconnecting may have run to its end first (its
    older address then written once); a session that went on since is left alone."""
    if RESUMED in st.session_state or len(written_links()) > 1 or not isinstance(resumed, dict):
        return
    st.session_state[RESUMED] = True
    query = resumed.get("query")
    if isinstance(query, str) and len(query) <= 8000:
        params = dict(urllib.parse.parse_qsl(query.removeprefix("?"), keep_blank_values=True))
        st.query_params.from_dict(params)


def view_token(page_id: str) -> str:
    """Names the view the server last chose for ``page_id`` (a link's values the browser keeps): the browser keeps its
    own view while this stays the same, and takes the server's when it changes."""
    nonce = st.session_state.setdefault(NONCE, secrets.token_hex(6))
    return f"{nonce}.{st.session_state.get(SERIALS, {}).get(page_id, 0)}"


def link_set_view(page_id: str) -> None:
    """A link set values the browser keeps on ``page_id``: its next view is the server's (``view_token`` changes)."""
    serials = dict(st.session_state.get(SERIALS, {}))
    serials[page_id] = serials.get(page_id, 0) + 1
    st.session_state[SERIALS] = serials


def page_changed(name: str, value: object, allowed: str = "") -> None:
    """A page moved a value the link set (a step beyond the last one), or keeps one the link's bounds moved: its notice
    names the value now used, and the range this view allows (``allowed``, e.g. "1–6") when it is narrower than the
    link's. Called before the value is stored: only a notice still in force (its value not changed since) is touched."""
    now = st.session_state.get(name)
    if not any(key_ == name and used == now for key_, used, _ in st.session_state.get(NOTICES, [])):
        return
    st.session_state[NOTICES] = [(key_, value, notice._replace(used=str(value), allowed=allowed or notice.allowed))
                                 if key_ == name and used == now else (key_, used, notice)
                                 for key_, used, notice in st.session_state.get(NOTICES, [])]


def notices(page: Page) -> list[Notice]:
    """What the link asked for that could not be used, while the value used is still the one shown."""
    values = page_values(page)
    in_use = {key("shared", n) for n in page.shared_names(values) + ("lang", "present")}
    in_use |= {key(page.id, p.name) for p in page.own_params(values)}
    return [notice for name, value, notice in st.session_state.get(NOTICES, [])
            if name in in_use and st.session_state.get(name) == value]


def link(page: Page) -> dict[str, str]:
    """The values the page uses, as URL text: its shared settings, its own parameters, the language, presenter mode."""
    values = page_values(page)
    by_name = {p.name: p for p in SHARED + ALWAYS}
    params = {name: by_name[name].write(shared(name)) for name in page.shared_names(values)}
    params |= {p.name: p.write(st.session_state[key(page.id, p.name)]) for p in page.own_params(values) if p.name not in page.browser}
    params["lang"] = by_name["lang"].write(values["lang"])
    if values["present"]:
        params["present"] = "1"
    return params


def publish(page: Page) -> dict[str, str]:
    """Write the page's values to the URL (only when they changed), so a copied link reproduces the view; returns them.

    Once per run: when it ends (app.py), or as the page on screen stops early (``page.stop``). A link opened is also
    answered at once, before the page runs (``arrive`` said so): a control touched while that run is still drawing then
    sends back the link as this session wrote it, never the link's own text to be read again.
    """
    params = link(page)
    if params != st.query_params.to_dict():
        st.query_params.from_dict(params)
    links = [written for written in written_links() if written != params][-KEPT_LINKS + 1:]
    st.session_state[WRITTEN] = [*links, params]
    return params


def on_screen(page: Page) -> bool:
    """Is ``page`` the page on screen: the page of the last run that finished, or the first page this session opened
    (a link, whose path is the page's own)? False for a navigation to it from another page."""
    return st.session_state.get(FINISHED) in (None, page.id)


def finished(page: Page) -> None:
    """The run of ``page`` ended (or stopped early): it is the page on screen."""
    st.session_state[FINISHED] = page.id
    st.session_state.pop(NAVIGATING, None)


def interrupted_navigation(page: Page) -> str | None:
    """The page a student chose whose run a widget of the old page interrupted (a sentence typed, then a page clicked:
    the box commits on blur, after the click); None otherwise. Marks ``page`` as being navigated to."""
    asked = st.session_state.get(NAVIGATING)
    on_screen = st.session_state.get(FINISHED)
    if asked and asked != page.id and page.id == on_screen and is_echo(st.query_params.to_dict()):
        return asked  # a rerun of the page still on screen, from its own URL: neither a link nor Back
    if page.id != on_screen:
        st.session_state[NAVIGATING] = page.id
    return None

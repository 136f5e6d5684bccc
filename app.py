"""Entry point: the navigation built from the page registry, the link read once, the page's sidebar, the link written back once."""

import functools
from pathlib import Path

import streamlit as st

from attention_plot.text import Texts
from views.shell import process, script, sidebar, state, theme
from views.shell.page import FULL_RUN, OPENED_BY_APP, PROJECTOR, SCREEN, fit_defaults, show_link_notices, start_run
from views.shell.private import StopException
from views.shell.registry import BY_ID, MENU_SECTIONS, PAGES
from views.widgets import ask, charts

ROOT = Path(__file__).resolve().parent


@functools.cache
def menu(lang: str, default: str | None) -> dict[str, list]:
    """The menu in the reader's language, in sections (made once per language: a page's path is resolved only then)."""
    titles = Texts(lang)
    return {titles(f"common.menu.{section}"): [
        st.Page(ROOT / page.file, title=titles(f"{page.id}.nav"), icon=page.icon, url_path=page.path,
                default=page.id == default if default else page.default)
        for page in PAGES if page.section == section] for section in MENU_SECTIONS}


def main(default: str | None = None) -> None:
    """Run the app; ``default`` names the page opened at "/" (tests open the page under test this way)."""
    process.start()  # once per process: scripts/run.py has done it already; `streamlit run app.py` and AppTest have not
    # The app's own icon before the menu is built: a page's Material icon would otherwise become the tab's icon through
    # an SVG fetched from fonts.gstatic.com (nothing leaves the server; the page's script stops later ones).
    st.set_page_config(page_icon=str(ROOT / "assets" / "icon.png"), layout="wide")
    slot = script.start()  # the page's script, first: installed before the page's first chart is drawn
    state.keep_values()
    ask.take_teacher_link()  # before the link is read: the teacher key never stays in the address bar
    lang = st.session_state.get(state.key("shared", "lang"), st.query_params.get("lang", state.browser_language()))
    navigation = st.navigation(menu(lang, default), expanded=True)  # every page: no "View 3 more", which Streamlit writes in English only
    page = next(p for p in PAGES if p.path == navigation.url_path or (not navigation.url_path and p.id == (default or PAGES[0].id)))
    asked = state.interrupted_navigation(page)
    if asked is not None:  # finish the navigation the student asked for, with the values the old page committed
        st.switch_page(ROOT / BY_ID[asked].file)
    st.session_state[OPENED_BY_APP] = page.id
    st.session_state[FULL_RUN] = True
    opened = state.arrive(page)  # a link opened (not a URL this session wrote)
    fit_defaults(page)
    present = state.shared("present")
    T = Texts(state.shared("lang"))
    st.set_page_config(page_title=f"{T(f'{page.id}.nav')} · {T('common.app_title')}", page_icon=str(ROOT / "assets" / "icon.png"), layout="wide",
                       initial_sidebar_state="collapsed" if present else "auto")
    sidebar.render(page)
    # The link is written once per run: when it ends, or as the page on screen stops early (page.stop: nothing can be
    # written after st.stop); never before a new page's run ends (the browser would show its values under the old
    # page's path). A link opened on the page on screen is also answered at once, before any of its controls can be
    # touched: a rerun they start then carries the link as this session wrote it, not the link's text to be read again.
    if opened and state.on_screen(page):
        state.publish(page)
    theme.apply(present)
    start_run(PROJECTOR.chart_font if present else SCREEN.chart_font, T.lang)
    try:
        navigation.run()
    except StopException:  # the page stopped early (empty sentence, missing model): nothing more can be drawn
        state.finished(page)
        raise
    finally:
        st.session_state[FULL_RUN] = False
    show_link_notices(page, T)
    link = state.publish(page)
    script.keep(slot, page, link)  # the step component's values back into the link the server just wrote
    with st.sidebar:
        if not st.session_state.pop(charts.CSV_IN_PAGE, False):  # the walkthrough's steps draw their own
            charts.download_matrices(T, charts.csv_name(page.path, state.page_values(page).get("section")))
        theme.copy_link(T)
    state.finished(page)  # last: a newer click interrupts a run anywhere above, and then it never finished

if __name__ == "__main__":
    main()

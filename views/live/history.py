"""What the class learns from its own history: each question's statistics over the classes this teacher kept
(``classroom.history``: facility, discrimination by the concept check's thirds, each option's share, stuck after
discussion), shown as a flag per question the room keeps getting wrong, a chart, a table with a plain sentence per
question, and a CSV. Nothing identifies a student.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from attention_plot.figures import Figure, plain
from attention_plot.text import Texts
from classroom import history, store
from classroom.generators import number
from views.live.common import engine, one_line, refused, wording

QUESTION = "#0072B2"  # Okabe–Ito blue: a question
FLAGGED = "#D55E00"  # Okabe–Ito vermilion, and a diamond: a question flagged (shape and colour, never colour alone)
BAND = "rgba(0, 114, 178, 0.10)"


@dataclass(frozen=True)
class Named:
    """A question's words in the teacher's language: one line, and each option key's name."""

    title: str
    options: dict[str, str]


def percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f} %"


def index(value: float | None) -> str:
    return "–" if value is None else number(value)


def in_classes(T: Texts, count: int) -> str:
    return T(f"history.panel.in_classes.{'one' if count == 1 else 'many'}", count=count)


def names(T: Texts, kept: list[history.Kept]) -> dict[str, Named]:
    """Each question key's words, from the newest class that asked it: a drawn question by its kind, its options by
    their misconceptions; any other by its one line, its options by letter and text."""
    named: dict[str, Named] = {}
    for question in kept:
        if question.phase:
            continue
        key = history.question_key(question.item, question.labels)
        keys, _ = history.option_keys(question.item, question.options, question.correct)
        stored = store.Question(0, question.item, "", question.options, question.correct, question.labels, "revealed", False, 0.0)
        if key.startswith("gen."):
            options = {k: T("history.panel.answer") if k == history.ANSWER else T(f"history.misconceptions.{k}") if len(k) > 1 else k
                       for k in keys}
            before = named[key].options if key in named else {}
            named[key] = Named(T("history.panel.drawn", kind=T(f"history.kinds.{key.split('.')[1]}")), {**before, **options})
        else:
            words = wording(T, stored)[1]
            named[key] = Named(one_line(T, stored), {k: f"{k}. {words[n]}" if n < len(words) else k for n, k in enumerate(keys)})
    return named


def sentence(T: Texts, finding: history.Finding, named: Named) -> str:
    """One finding in words: percents and indices as shown, an option by its name, classes counted."""
    values = dict(finding.values)
    if "percent" in values:
        values["percent"] = f"{values['percent']:.0f} %"
    if "index" in values:
        values["index"] = number(values["index"])
    if "option" in values:
        values["option"] = f"“{named.options.get(values['option'], values['option'])}”"
    if "classes" in values:
        values["classes"] = in_classes(T, values["classes"])
    return T(f"history.findings.{finding.name}", **values)


def says(T: Texts, stat: history.Statistics, named: Named) -> str:
    return " ".join(sentence(T, f, named) for f in stat.findings)


def shares(T: Texts, stat: history.Statistics, named: Named) -> str:
    """"A ✓: 50 % · B: 33 % · C: 17 % · D: 0 %"."""
    parts = []
    for share in stat.options:
        name = named.options.get(share.option, share.option)
        short = name.split(".")[0] if len(share.option) == 1 else name
        mark = f" {T('history.panel.right_mark')}" if share.right else ""
        parts.append(T("history.panel.option_share", option=f"{short}{mark}", percent=percent(share.share)))
    return " · ".join(parts)


def table_rows(T: Texts, stats: tuple[history.Statistics, ...], named: dict[str, Named]) -> list[dict[str, str]]:
    rows = []
    for n, stat in enumerate(stats, start=1):
        flag = f"{T('history.panel.flag_mark')} " if stat.flagged else ""
        rows.append({T("history.panel.number"): f"{flag}Q{n}", T("history.panel.question"): plain(named[stat.question].title),
                     T("history.panel.classes"): str(stat.classes), T("history.panel.answers"): str(stat.answers),
                     T("history.panel.facility"): percent(stat.facility), T("history.panel.facility_second"): percent(stat.facility_second),
                     T("history.panel.discrimination"): index(stat.discrimination),
                     T("history.panel.options"): plain(shares(T, stat, named[stat.question])),
                     T("history.panel.says"): plain(says(T, stat, named[stat.question]))})
    return rows


def figure(T: Texts, stats: tuple[history.Statistics, ...]) -> Figure:
    """Facility (x, %) against discrimination (y) with each question's number; the discussion band shaded, the
    too-easy line at 90 % and the weak line at 0.2 dashed; flagged questions as vermilion diamonds."""
    traces = []
    for flagged, colour, symbol, name in ((False, QUESTION, "circle", T("history.panel.trace_questions")),
                                          (True, FLAGGED, "diamond", T("history.panel.trace_flagged"))):
        points = [(n, s) for n, s in enumerate(stats, start=1) if s.flagged == flagged and s.discrimination is not None]
        if points:
            traces.append(dict(type="scatter", mode="markers+text", name=name, x=[100 * s.facility for _, s in points],
                               y=[s.discrimination for _, s in points], text=[f"Q{n}" for n, _ in points], textposition="top center",
                               textfont=dict(color="#1a1a1a"),
                               marker=dict(color=colour, symbol=symbol, size=14, line=dict(color="#000000", width=1)),
                               hovertemplate="%{text}: %{x:.0f} %, %{y:.2f}<extra></extra>", cliponaxis=False))
    line = dict(color="#595959", dash="dash", width=1)
    shapes = [dict(type="rect", x0=100 * history.DISCUSS[0], x1=100 * history.DISCUSS[1], y0=-1.1, y1=1.1, fillcolor=BAND, line=dict(width=0),
                   layer="below"),
              dict(type="line", x0=100 * history.TOO_EASY, x1=100 * history.TOO_EASY, y0=-1.1, y1=1.1, line=line, layer="below"),
              dict(type="line", x0=0, x1=100, y0=history.WEAK, y1=history.WEAK, line=line, layer="below"),
              dict(type="line", x0=0, x1=100, y0=0, y1=0, line=dict(color="#595959", width=1), layer="below")]
    said = dict(showarrow=False, font=dict(color="#333333"))
    layout = dict(title=dict(text=T("history.panel.chart_title"), font=dict(size=14), x=0, xref="paper"), height=440,
                  margin=dict(l=10, r=10, t=84, b=10), shapes=shapes,
                  annotations=[dict(x=50, y=1.1, text=T("history.panel.band"), yanchor="bottom", **said),
                               dict(x=100 * history.TOO_EASY, y=1.1, text=T("history.panel.too_easy_line"), xanchor="right",
                                    yanchor="bottom", **said),
                               dict(x=0, y=history.WEAK, text=T("history.panel.apart_line"), xanchor="left", yanchor="top", **said)],
                  xaxis=dict(title=dict(text=T("history.panel.x_title")), range=[-4, 104], dtick=10),
                  yaxis=dict(title=dict(text=T("history.panel.y_title")), range=[-1.15, 1.3], dtick=0.5, zeroline=False),
                  legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"))
    return {"data": traces, "layout": layout}


def alt(T: Texts, stats: tuple[history.Statistics, ...]) -> str:
    """The chart in words: every point drawn, and the questions left out (no discrimination index)."""
    drawn = [T("history.panel.alt_point", number=n, percent=percent(s.facility), index=index(s.discrimination),
               flag=T("history.panel.alt_flag") if s.flagged else "")
             for n, s in enumerate(stats, start=1) if s.discrimination is not None]
    missing = [f"Q{n}" for n, s in enumerate(stats, start=1) if s.discrimination is None]
    separator = T("common.labels.alt_separator")
    return T("history.panel.alt", title=T("history.panel.chart_title"), points=separator.join(drawn) or T("history.panel.alt_none"),
             missing=", ".join(missing) or T("history.panel.alt_none"))


CSV = ("number", "item", "question_text", "classes", "answers", "facility_percent", "round2_right_percent", "discrimination",
       "upper_right", "upper_answers", "lower_right", "lower_answers", "stuck_classes", "flagged", "option", "option_text",
       "correct", "chosen", "share_percent", "classes_offered", "classes_unchosen", "says")


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet shows as text, never runs as a formula (an option such as "−0.5")."""
    return "'" + text if text.startswith(("=", "+", "-", "@", "\t", "\r")) else text


def csv_text(T: Texts, stats: tuple[history.Statistics, ...], named: dict[str, Named]) -> str:
    """One row per question and option (the question's figures repeated on each of its rows), headers in the teacher's
    language; the numbers as numbers (percents with one decimal, the index with three)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([T(f"history.csv.{name}") for name in CSV])
    for n, stat in enumerate(stats, start=1):
        words = named[stat.question]
        second = stat.facility_second
        base = [n, stat.question, spreadsheet_text(words.title), stat.classes, stat.answers,
                "" if stat.facility is None else f"{100 * stat.facility:.1f}", "" if second is None else f"{100 * second:.1f}",
                "" if stat.discrimination is None else f"{stat.discrimination:.3f}", *stat.upper, *stat.lower, stat.stuck,
                stat.flagged]
        for share in stat.options:
            writer.writerow([*base, share.option, spreadsheet_text(words.options.get(share.option, share.option)), share.right, share.chosen,
                             "" if share.share is None else f"{100 * share.share:.1f}", share.offered, share.unchosen,
                             spreadsheet_text(says(T, stat, words))])
    return out.getvalue()


def panel(T: Texts, key: str) -> None:
    """The statistics of every question over this teacher's classes: a flag for each question the room keeps getting
    wrong after discussion, the chart, the table, the CSV."""
    from views.widgets import charts

    try:
        kept = history.read(engine(), key)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    asked, scores = history.asked_of(kept)
    stats = history.statistics(asked, scores)
    st.markdown(f"### {T('history.panel.title')}")
    if not any(stat.answers for stat in stats):
        st.caption(T("history.panel.none"))
        return
    named = names(T, kept)
    st.caption(T("history.panel.intro", classes=in_classes(T, len({a.classroom for a in asked if a.first}))))
    if not scores:
        st.info(T("history.panel.no_check"), icon=":material/quiz:")
    for n, stat in enumerate(stats, start=1):
        if stat.flagged:
            stuck = next(f for f in stat.findings if f.name == "stuck")
            st.warning(T("history.panel.flagged", number=n, question=plain(named[stat.question].title),
                         sentence=sentence(T, stuck, named[stat.question])), icon=":material/flag:")
    charts.show(figure(T, stats), "live-history-chart", alt(T, stats))
    import pandas as pd

    st.table(pd.DataFrame(table_rows(T, stats, named)), hide_index=True)
    st.download_button(T("history.panel.export"), data=lambda: csv_text(T, stats, named), file_name="live-question-statistics.csv",
                       mime="text/csv", key="live-history-export", icon=":material/download:")

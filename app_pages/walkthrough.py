"""Walkthrough: a typed sentence through every step of self-attention."""

from dataclasses import replace

import streamlit as st

from attention_core import to_json, tokenize
from views import cache, messages, page_state, real, sidebar
from views.classroom import edit_numbers, predict_then_reveal
from views.inputs import explanation_or_stop
from views.text import Texts
from views.walkthrough import Walk, render_focus, render_step, steps_for

PAGE = "walk"
PARAMS = {"step": (1, 7, 1), "all": (0, 1, 0), "head": (1, 12, 1), "focus": (1, 128, 1), "example": (0, 1, 0), "values": (0, 1, 1),
          "weights": (0, 1, 0), "layer": (1, 6, 1), "predict": (0, 1, 0)}

settings = sidebar.current()
T = Texts(settings.lang)
notices = page_state.init_ints(PAGE, PARAMS)
present = settings.present
st.title(T("walkthrough.title"))
if not present:
    st.caption(T("walkthrough.intro"))
messages.show_notices(sidebar.url_notices() + notices, T)


def set_example(on: bool) -> None:
    page_state.put(PAGE, "example", int(on))
    page_state.put(PAGE, "step", 3 if on else 1)


def move(by: int) -> None:
    page_state.put(PAGE, "step", page_state.get(PAGE, "step") + by)


textbook = bool(page_state.get(PAGE, "example"))
if textbook:
    if not present:
        st.info(T("walkthrough.textbook.active"), icon=":material/menu_book:")
        st.button(T("walkthrough.textbook.leave"), key="textbook-leave", on_click=set_example, args=(False,))
    walk = Walk(("Thinking", "Machines"), ("Thinking", "Machines"), cache.textbook(), 0, None)
else:
    if not present:
        st.button(T("walkthrough.textbook.button"), key="textbook-load", on_click=set_example, args=(True,))
    pretrained = page_state.get(PAGE, "weights") if present else st.segmented_control(
        T("walkthrough.weights_choice"), range(2), required=True, format_func=lambda i: T.get("walkthrough.weights_options")[i],
        key=page_state.widget_key(PAGE, "weights", int))
    page_state.put(PAGE, "weights", pretrained)
    model = real.model() if pretrained else None
    if pretrained and model is None:
        st.warning(T("walkthrough.model_missing"), icon=":material/download:")
    if model is not None and tokenize(settings.text):
        layer = page_state.get(PAGE, "layer") if present else st.segmented_control(
            T("walkthrough.layer"), range(1, 7), required=True, key=page_state.widget_key(PAGE, "layer", int))
        page_state.put(PAGE, "layer", layer)
        explanation = model.explanation(real.run(model, str(model.folder), settings.text), layer - 1)
    else:
        explanation = explanation_or_stop(settings, T)
    heads = len(explanation.trace.heads)
    head = min(page_state.get(PAGE, "head"), heads)
    if heads > 1 and not present:
        key = page_state.widget_key(PAGE, "head", to_widget=lambda h: min(h, heads))
        st.session_state[key] = min(st.session_state[key], heads)
        head = st.segmented_control(T("walkthrough.head"), range(1, heads + 1), key=key, help=T("walkthrough.head_help")) or 1
    page_state.put(PAGE, "head", head)
    walk = Walk(explanation.tokens, explanation.context_tokens, explanation.trace.heads[head - 1], head - 1, explanation)
    if present:
        pass
    elif "layer" in explanation.settings:
        st.caption(T("walkthrough.weights_pretrained", layer=page_state.get(PAGE, "layer")))
    else:
        st.caption(T("walkthrough.weights_random"))

focus_key = page_state.widget_key(PAGE, "focus", to_widget=lambda f: min(f, len(walk.tokens)) - 1)
st.session_state[focus_key] = min(st.session_state[focus_key], len(walk.tokens) - 1)
predicting = bool(page_state.get(PAGE, "predict")) and not present
quiz = f"walk-{hash((walk.tokens, walk.head_index, settings, textbook, st.session_state[focus_key]))}"
if predicting and quiz not in st.session_state.get("revealed", set()):
    walk = replace(walk, hidden_query=st.session_state[focus_key])
    st.info(T("classroom.hidden"), icon=":material/visibility_off:")
steps = steps_for(walk)
step = min(max(page_state.get(PAGE, "step"), 1), len(steps))
page_state.put(PAGE, "step", step)
if present:
    values, every = bool(page_state.get(PAGE, "values")), False
else:
    toggles = st.columns([2, 3, 3])
    values = toggles[0].toggle(T("walkthrough.show_values"), key=page_state.widget_key(PAGE, "values"), help=T("walkthrough.show_values_help"))
    every = toggles[1].toggle(T("walkthrough.all_steps"), key=page_state.widget_key(PAGE, "all"))
    if walk.explanation is not None:
        toggles[2].download_button(T("common.sidebar.download_json"), lambda e=walk.explanation: to_json(e), file_name="attention-view.json",
                                   mime="application/json", key="download-json", icon=":material/data_object:",
                                   help=T("common.sidebar.download_json_help"))
    page_state.put(PAGE, "values", int(values))
    page_state.put(PAGE, "all", int(every))

if every:
    for name in steps:
        render_step(name, walk, T, values)
        st.divider()
else:
    back, where, forward = st.columns([1, 4, 1], vertical_alignment="center")
    back.button(T("walkthrough.previous"), key="walk-previous", on_click=move, args=(-1,), disabled=step == 1, width="stretch")
    where.markdown(f"**{T('walkthrough.step_of', number=step, total=len(steps), title=T(f'walkthrough.steps.{steps[step - 1]}.title'))}**")
    forward.button(T("walkthrough.next"), key="walk-next", on_click=move, args=(1,), disabled=step == len(steps), width="stretch")
    render_step(steps[step - 1], walk, T, values, compact=present)

if present:  # the sidebar's presenter toggle leaves this mode
    page_state.publish(PAGE, list(PARAMS))
    st.stop()
st.divider()
st.subheader(T("walkthrough.focus.title"))
pick, guess = st.columns([3, 2], vertical_alignment="bottom")
focus = pick.selectbox(T("walkthrough.focus.pick"), range(len(walk.tokens)), key=focus_key,
                       format_func=lambda i: f"{i + 1} · {walk.tokens[i]}")
predict = guess.toggle(T("classroom.predict"), key=page_state.widget_key(PAGE, "predict"), help=T("classroom.predict_help"))
page_state.put(PAGE, "focus", focus + 1)
page_state.put(PAGE, "predict", int(predict))
if not predict or predict_then_reveal(walk.head.weights[focus], walk.key_tokens, T, quiz):
    render_focus(walk, T, focus)
    if st.toggle(T("classroom.hands_on"), key="hands-on", help=T("classroom.hands_on_intro")):
        st.caption(T("classroom.hands_on_intro"))
        edit_numbers(walk.head, walk.key_tokens, focus, T, key=f"edit-{abs(hash((walk.tokens, walk.head_index, focus)))}")
page_state.publish(PAGE, list(PARAMS))

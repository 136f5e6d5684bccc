// The step component (views/widgets/steps.py): every step of a view arrives once, as bytes; the browser steps through them.
// Choosing a step, a head or a word, numbers on and off, every step at once, hovering a cell and Predict first's hiding
// and reveal never go to the server. The browser keeps the link current (history.replaceState) and remembers the view
// per page in sessionStorage, so a rerun, a page visit or a reload keeps it; a link opened (a new token from the server)
// sets it again. Matrices are HTML tables: one Tab stop each, arrow keys walk the cells, a screen reader reads them once.

const STORE = "attention.view.", QUIZ = "attention.quiz.";
const live = new Set();  // mounted components, for the ← / → keys

// --- Small DOM helpers: text is always text (textContent), never HTML, unless it was made safe on the server ---

const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name === "html") node.innerHTML = value;  // only server-made HTML (views/steps.markdown, formula)
    else if (name === "style") for (const [key, v] of Object.entries(value)) node.style.setProperty(key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), v);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false)
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  return node;
};
const escape = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const fill = (text, values) => String(text).replace(/\{(\w+)\}/g, (all, name) => name in values ? values[name] : all);
let measurer = null;
const textWidth = (text, px) => { measurer = measurer || document.createElement("canvas").getContext("2d"); measurer.font = `${px}px "Source Sans", "Source Sans Pro", "Noto Sans CJK SC", sans-serif`; return measurer.measureText(text).width; };

// --- The payload: "ATT1", header length, header JSON, padding, float64 values ---

function decode(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(0, 4)) !== "ATT1") throw new Error("not a step payload");
  const length = view.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length)));
  const values = new Float64Array(bytes.slice(8 + length).buffer);  // a copy: aligned to 8 bytes
  return {header, values};
}

// The nearest box around ``node`` that scrolls up and down (through a shadow root's host), or null.
function scroller(node) {
  for (let at = node.parentNode || node.host; at && at !== document; at = at.parentNode || at.host) {
    if (at.nodeType === 1 && /(auto|scroll)/.test(getComputedStyle(at).overflowY) && at.scrollHeight > at.clientHeight + 1) return at;
  }
  return null;
}

const readStore = (key) => { try { return JSON.parse(sessionStorage.getItem(key) || "null"); } catch { return null; } };
const writeStore = (key, value) => { try { sessionStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode */ } };

class Steps {
  constructor(root) {
    this.root = root;
    this.cache = new Map();  // built step contents, by step, head, numbers, hiding and width
    this.width = 0;
    this.onResize = new ResizeObserver(() => {
      const width = Math.round(this.main ? this.main.clientWidth : 0);
      if (this.d && width && Math.abs(width - this.width) > 4) {
        // Rows made shorter to fit the screen's height stay so while that height stays (a scroll bar that comes and goes
        // as the step fits changes the width: starting again from tall rows made the step jump back and forth).
        if (window.innerHeight !== this.capHeight) this.rowCap = 0;
        this.width = width; this.cache.clear(); this.update();
      }
      else if (this.d && this.d.layout === "projector" && !this.fitting) requestAnimationFrame(() => this.fit());  // drawn taller
    });
  }

  // ---- Loading a payload, and the view the browser keeps ----

  load(data, setState, setTrigger) {
    this.setState = setState; this.setTrigger = setTrigger;
    const typing = this.typing();
    const choosing = !!(this.dialog && !this.dialog.hidden && this.dialog.isConnected);  // the projector's choices stay open
    const part = this.focusedPart(), asked = this.asked;  // the control the keyboard was on; the walk or layer just chosen
    const walked = (w) => (w ? `${w.current}|${w.layer}` : "");
    const before = this.d ? walked(this.d.walks) : null;
    this.asked = null;
    this.dialog = null;  // built again with the new payload's walks, heads and words
    const {header, values} = decode(data);
    this.d = header; this.f = values; this.t = header.texts;
    this.cache.clear();
    this.rowCap = 0;
    this.focusDrawn = null;
    this.focusBuilt = false;
    const kept = readStore(STORE + header.page);
    const view = {...header.view, hands: false};
    if (kept && kept.token === header.token) Object.assign(view, kept.view);
    // Another walk or task while the page is open (the article's example, another task's run) opens at its own first step.
    if (header.enter && header.enter.step && kept && kept.token === header.token && kept.variant !== header.variant) {
      view.step = Math.max(view.step, header.enter.step);
    }
    this.view = view;
    this.clamp();
    this.build();
    this.keepTyping(typing);
    if (!header.steps.length) return;
    this.update();
    if (choosing && this.stepBar) this.openDialog(part);
    else if (part) this.focusPart(part);
    // Another walk or layer chosen here: the step it shows is said (the article's example opens at its own step), after
    // the choice itself, in the live region kept across payloads (a region drawn anew is not heard).
    if (asked && before !== null && before !== walked(header.walks)) this.say(`${asked} \u2014 ${this.stepWords(this.view.step)}`);
    this.save();
    this.report();
    live.add(this);
  }

  // The control the keyboard is on (its data-part), so that the same control has the focus in the skeleton built again
  // for a new payload (another walk or layer reruns the page): not the dialog's first control, nor the page's body.
  focusedPart() {
    const active = this.root.getRootNode().activeElement;
    const part = active && this.top && this.top.contains(active) ? active.closest("[data-part]") : null;
    return part ? part.getAttribute("data-part") : null;
  }

  focusPart(part) {
    const target = this.top && (this.top.querySelector(`[data-part="${part}"].on`) || this.top.querySelector(`[data-part="${part}"]`));
    if (target && target.getClientRects().length) { target.focus({preventScroll: true}); return true; }
    return false;
  }

  // Words typed in the sentence box and not yet sent stay there when other numbers arrive (a slider moved meanwhile),
  // and so does the caret; once the server's sentence changed (sent, or another walk), the box shows it.
  typing() {
    const box = this.controls && this.controls.sentence, before = this.d && this.d.sentence;
    if (!box || !before) return null;
    return {value: box.value, was: before.text, focused: box.getRootNode().activeElement === box, start: box.selectionStart, end: box.selectionEnd};
  }

  keepTyping(typing) {
    const box = this.controls.sentence, now = this.d.sentence;
    if (!typing || !box || !now || now.text !== typing.was) return;
    box.value = typing.value;
    if (typing.focused) { box.focus({preventScroll: true}); box.setSelectionRange(typing.start, typing.end); }
  }

  clamp() {
    const v = this.view, d = this.d, within = (x, hi) => Math.min(Math.max(parseInt(x, 10) || 1, 1), Math.max(1, hi));
    v.step = within(v.step, d.steps.length); v.head = within(v.head, d.heads); v.focus = within(v.focus, d.tokens.length);
    for (const name of ["values", "all", "predict", "hands"]) v[name] = !!v[name];
  }

  urlValues() {
    const v = this.view, d = this.d, out = {};
    for (const [field, name] of Object.entries(d.url)) {
      if (field === "head" && d.heads < 2) continue;
      const own = d.url_values && d.url_values[field];  // a link that names the value itself (a training step, not its place)
      out[name] = own ? own[v[field] - 1] : typeof v[field] === "boolean" ? (v[field] ? "1" : "0") : String(v[field]);
    }
    return out;
  }

  save() {
    const url = this.urlValues();
    writeStore(STORE + this.d.page, {token: this.d.token, variant: this.d.variant, view: this.view, url});
    const to = new URL(location.href);
    let changed = false;
    for (const [name, value] of Object.entries(url)) if (to.searchParams.get(name) !== value) { to.searchParams.set(name, value); changed = true; }
    if (!(this.d.heads > 1) && to.searchParams.has("head")) { to.searchParams.delete("head"); changed = true; }
    if (changed) history.replaceState(history.state, "", to);
  }

  // The server hears of the word and the head only while a part that needs them is open (hands-on, a live class).
  report() {
    const v = this.view;
    if (!this.setState || !(v.hands || this.d.teaching)) { this.reported = null; return; }
    const said = JSON.stringify([v.head, v.focus, v.hands]);
    if (said === this.reported) return;
    this.reported = said;
    clearTimeout(this.reporting);
    this.reporting = setTimeout(() => this.setState("report", {head: v.head, focus: v.focus, hands: v.hands}), 120);
  }

  set(changes, announce) {
    Object.assign(this.view, changes);
    this.clamp();
    this.save();
    this.update();
    this.report();
    if (announce) this.say(announce);
  }

  say(text) { this.announcer.textContent = ""; requestAnimationFrame(() => { this.announcer.textContent = text; }); }

  // ---- The skeleton: built once per payload; update() changes only what a choice changes ----

  build() {
    const d = this.d, t = this.t, projector = d.layout === "projector";
    // The box and its live region stay in the page from the first payload on (a region drawn anew is not heard: another
    // walk's step was never said); all else is built again.
    const top = this.top || el("div");
    this.top = top;
    top.className = `steps ${projector ? "projector" : "screen"}`;
    top.setAttribute("lang", d.lang === "zh" ? "zh-Hans" : "en");
    this.announcer = this.announcer || el("div", {class: "sr-only", "aria-live": "polite", "aria-atomic": "true"});
    for (const child of [...top.childNodes]) if (child !== this.announcer) child.remove();
    if (this.announcer.parentNode !== top) top.prepend(this.announcer);
    if (top.parentNode !== this.root) this.root.replaceChildren(top);
    this.tip = el("div", {class: "tip", role: "tooltip", id: "steps-tip", hidden: true});
    this.controls = {};
    if (!projector) top.append(this.toolbar());
    if (!d.steps.length) {  // nothing to walk through yet: the sentence box and why
      top.append(el("p", {class: "note info", html: d.message}));
      return;
    }
    top.append(this.bar());
    this.question = el("div", {class: "question"});
    this.main = el("div", {class: "main"});
    top.append(this.question, this.main);
    if (!projector && d.focus) { this.focusArea = el("section", {class: "focus"}); top.append(this.focusArea); }
    top.append(this.tip);
    this.width = Math.round(this.main.clientWidth || this.root.host?.clientWidth || 700);
    this.onResize.disconnect();
    this.onResize.observe(this.main);
    if (document.fonts) document.fonts.ready.then(() => this.fitWhere());  // measured again in the page's own fonts
    top.addEventListener("pointerdown", this.away = this.away || ((event) => { if (!event.target.closest("td, th")) this.hideTip(); }));  // once: the box stays
    document.addEventListener("pointerdown", this.outside = this.outside || ((event) => {
      if (this.dialog && !this.dialog.hidden && !event.composedPath().includes(this.dialog) && !event.composedPath().includes(this.controls.choices)) this.closeDialog(false);
    }), true);
  }

  switchControl(label, name, help) {
    const input = el("input", {type: "checkbox", role: "switch", "data-part": name, onchange: () => this.set({[name]: input.checked})});
    this.controls[name] = input;
    return el("label", {class: "switch", title: help || null}, input, el("span", {class: "track", "aria-hidden": "true"}), el("span", {text: label}));
  }

  walkChoice() {
    const d = this.d, t = this.t, w = d.walks;
    if (!w) return [];
    const select = el("select", {"data-part": "walk", onchange: () => {
      this.asked = select.selectedOptions[0].textContent; this.say(this.asked); this.setTrigger && this.setTrigger("walk", select.value); }},
      ...w.options.map((name, i) => el("option", {value: name, selected: name === w.current ? true : null}, w.labels[i])));
    const parts = [el("label", {class: "field"}, el("span", {class: "label", text: t.walk}), select)];
    if (w.layers.length) {
      const layer = el("select", {"data-part": "layer", onchange: () => {
        this.asked = `${t.layer} ${layer.value}`; this.setTrigger && this.setTrigger("layer", parseInt(layer.value, 10)); }},
        ...w.layers.map((n) => el("option", {value: n, selected: n === w.layer ? true : null}, String(n))));
      parts.push(el("label", {class: "field"}, el("span", {class: "label", text: t.layer}), layer));
    }
    return parts;
  }

  // The sentence, sent with Enter or the button (never half-typed: nothing leaves the box until it is sent), or an example.
  sentenceRow() {
    const s = this.d.sentence;
    const input = el("input", {type: "text", value: s.text, maxlength: s.max, placeholder: s.placeholder, "aria-describedby": "sentence-help", title: s.help,
      autocomplete: "off", spellcheck: "false"});
    const send = (text) => { if (this.setTrigger) this.setTrigger("text", text); };
    const examples = el("select", {"aria-label": s.examples_label, onchange: () => { if (examples.value) { input.value = examples.value; send(examples.value); } }},
      el("option", {value: ""}, s.examples_label), ...s.examples.map((e) => el("option", {value: e}, e)));
    const form = el("form", {class: "sentence", onsubmit: (event) => { event.preventDefault(); send(input.value); }},
      el("label", {class: "field grow"}, el("span", {class: "label", text: s.label}), input),
      el("button", {type: "submit", class: "primary send"}, el("span", {"aria-hidden": "true", text: "\u25b6 "}), s.show),
      el("div", {class: "field examples"}, examples));
    this.controls.sentence = input;
    // A paste longer than the box holds is cut by the browser without a word: the box says so.
    const cut = el("p", {class: "note warn", role: "status", hidden: true, text: fill(this.t.cut || "", {max: s.max})});
    input.addEventListener("input", () => { cut.hidden = input.value.length < s.max; });
    return el("div", {}, form, cut, el("p", {class: "sr-only", id: "sentence-help", text: s.help}));
  }

  headChoice() {
    const d = this.d, t = this.t;
    if (d.heads < 2) return null;
    const group = el("div", {class: "segmented heads", role: "radiogroup", "aria-label": t.head, title: t.head_help});
    this.controls.heads = [];
    for (let h = 1; h <= d.heads; h++) {
      const button = el("button", {type: "button", role: "radio", onclick: () => this.set({head: h}, fill(t.head_of, {head: h, heads: d.heads}))}, String(h));
      button.addEventListener("keydown", (event) => {
        const by = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1}[event.key];
        if (!by) return;
        event.preventDefault(); event.stopPropagation();
        const next = (this.view.head - 1 + by + d.heads) % d.heads + 1;
        this.set({head: next}, fill(t.head_of, {head: next, heads: d.heads}));
        this.controls.heads[next - 1].focus();
      });
      this.controls.heads.push(button);
      group.append(button);
    }
    return el("div", {class: "field"}, el("span", {class: "label", text: t.head}), group);
  }

  toolbar() {
    const d = this.d, t = this.t, parts = [];
    if (d.sentence) parts.push(this.sentenceRow());
    const toolbar = el("div", {class: "toolbar"}, ...this.walkChoice());
    if (!d.steps.length) return el("div", {class: "top"}, ...parts, toolbar);
    toolbar.append(this.headChoice() || "");
    const downloads = el("details", {class: "menu"}, el("summary", {}, el("span", {class: "icon", "aria-hidden": "true", text: "\u2913"}), t.download));
    this.downloads = downloads;
    downloads.addEventListener("toggle", () => { if (downloads.open) this.fillDownloads(); });
    toolbar.append(this.switchControl(t.values, "values", t.values_help), this.switchControl(t.all, "all"), downloads);
    // On a phone the choices fold under one line, so the first step keeps the first screen.
    parts.push(window.innerWidth < 640 ? el("details", {class: "about options"}, el("summary", {text: t.options}), toolbar) : toolbar);
    // How to read the page and what these numbers are: one line each, folded, so the first step keeps the first screen.
    const abouts = el("div", {class: "abouts"});
    if (d.intro) abouts.append(el("details", {class: "about"}, el("summary", {text: t.how}), el("p", {html: d.intro})));
    if (d.note) abouts.append(el("details", {class: "about"}, el("summary", {text: t.about}), el("p", {text: d.note})));
    if (abouts.childElementCount) parts.push(abouts);
    return el("div", {class: "top"}, ...parts);
  }

  bar() {
    const d = this.d, t = this.t, projector = d.layout === "projector";
    const previous = el("button", {type: "button", class: "nav previous", onclick: () => this.move(-1)}, t.previous);
    const next = el("button", {type: "button", class: "nav next", onclick: () => this.move(1)}, t.next);
    const select = el("select", {class: "where", "aria-label": t.steps, onchange: () => {
      const step = parseInt(select.value, 10); this.set({step}, this.stepWords(step)); }});
    const short = el("span", {class: "where-short", "aria-hidden": "true"});  // the step in brief where the list is narrow
    Object.assign(this.controls, {previous, next, select, short});
    const parts = [previous, el("span", {class: "where-box"}, select, short)];
    if (projector) parts.push(this.choicesButton());
    parts.push(next);
    this.stepBar = el("nav", {class: "bar", "aria-label": t.steps}, ...parts);
    return this.stepBar;
  }

  stepWords(step) {
    const d = this.d, words = fill(this.t.step_of, {number: step, total: d.steps.length, title: d.steps[step - 1].title});
    // a projector has no head buttons in view: the room is told which head it sees
    return d.layout === "projector" && d.heads > 1 && this.t.head_of ? `${words} \u00b7 ${fill(this.t.head_of, {head: this.view.head, heads: d.heads})}` : words;
  }

  // The step list shows the step and its title ("Step 5 of 6: Softmax: the attention weights"). Where the bar leaves it
  // too little room for that (a phone) its box shows "Step 5 of 6", or only "5 / 6", drawn over the list (the list
  // itself still opens on every title, and a screen reader reads it whole), and on a projector the step's own heading,
  // otherwise for a screen reader only, shows the title under the bar (steps.css).
  fitWhere() {
    const c = this.controls, select = c.select, v = this.view, total = this.d.steps.length;
    if (!select || !select.isConnected || !c.short) return;
    const style = getComputedStyle(select), room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;  // the arrow
    if (!(room > 0)) return;
    measurer = measurer || document.createElement("canvas").getContext("2d");
    measurer.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const brief = String(this.t.step_of).replace(/\s*[:：]\s*\{title\}\s*$/u, "");  // "Step {number} of {total}"
    const forms = [this.stepWords(v.step), ...(brief.includes("{title}") ? [] : [fill(brief, {number: v.step, total})]), `${v.step} / ${total}`];
    const shown = forms.find((form) => measurer.measureText(form).width <= room) || forms[forms.length - 1];
    const compact = shown !== forms[0];
    if (c.short.textContent !== (compact ? shown : "")) c.short.textContent = compact ? shown : "";
    this.stepBar.classList.toggle("compact", compact);
    this.top.classList.toggle("compact", compact);
  }

  move(by) {
    const v = this.view, total = this.d.steps.length, to = v.step + by;
    if (to < 1 || to > total) { this.say(to < 1 ? this.t.first_step : this.t.last_step); return; }
    this.set({step: to}, this.stepWords(to));
  }

  // ---- Presenter mode: the walk, the layer, the head, the word, Predict first and the way out, in a dialog ----

  choicesButton() {
    const t = this.t;
    const button = el("button", {type: "button", class: "nav choices-button", "aria-label": t.choices, title: t.choices, "aria-haspopup": "dialog",
      "aria-expanded": "false", onclick: () => (this.dialog && !this.dialog.hidden ? this.closeDialog(true) : this.openDialog())}, el("span", {"aria-hidden": "true", text: "\u2699"}));
    this.controls.choices = button;
    return button;
  }

  openDialog(part = null) {
    const d = this.d, t = this.t;
    if (!this.dialog) {
      const word = d.tokens.length ? this.wordSelect() : null;
      const predict = d.focus ? this.switchControl(t.predict, "predict", t.predict_help) : null;
      const leave = el("button", {type: "button", class: "plain", "data-part": "leave", onclick: () => this.setTrigger && this.setTrigger("present", false)}, t.leave);
      const close = el("button", {type: "button", class: "close", "data-part": "close", "aria-label": t.close, onclick: () => this.closeDialog(true)}, "\u00d7");
      this.dialog = el("div", {class: "dialog", role: "dialog", "aria-label": t.choices, hidden: true},
        el("div", {class: "dialog-head"}, el("strong", {text: t.choices}), close),
        ...this.walkChoice(), this.headChoice(), word, predict, leave);
      this.dialog.addEventListener("keydown", (event) => {
        if (event.key === "Escape") { event.stopPropagation(); this.closeDialog(true); return; }
        if (event.key === "Tab" && !event.altKey && !event.ctrlKey && !event.metaKey) this.tabOut(event);
      });
      this.stepBar.append(this.dialog);
      this.update();
    }
    this.dialog.hidden = false;
    this.controls.choices.setAttribute("aria-expanded", "true");
    if (part && this.focusPart(part)) return;  // drawn again for a new payload: the control that changed keeps the focus
    const first = this.dialog.querySelector("button.on, button, select, input");
    if (first) first.focus();
  }

  // Tab from the dialog's last control closes it and goes on to what follows its button (Next); Shift+Tab from its first
  // (×) closes it and goes back to its button, as the page's other pop-overs do (shell.js). The dialog is drawn after
  // Next: Tab fell from it to the step's matrices behind it, the dialog still open over them (WCAG 2.4.11).
  tabOut(event) {
    const stops = [...this.dialog.querySelectorAll("button, select, input, [tabindex]")]
      .filter((node) => node.tabIndex >= 0 && !node.disabled && node.getClientRects().length);
    const at = event.composedPath()[0], edge = event.shiftKey ? stops[0] : stops[stops.length - 1];
    if (!stops.length || at !== edge) return;
    event.preventDefault();
    event.stopPropagation();
    this.closeDialog(event.shiftKey);
    if (!event.shiftKey) this.controls.next.focus();
  }

  closeDialog(refocus) {
    if (!this.dialog || this.dialog.hidden) return;
    this.dialog.hidden = true;
    this.controls.choices.setAttribute("aria-expanded", "false");
    if (refocus) this.controls.choices.focus();
  }

  wordSelect() {
    const d = this.d, t = this.t;
    const select = el("select", {"data-part": "word", onchange: () => this.set({focus: parseInt(select.value, 10)})},
      ...d.tokens.map((token, i) => el("option", {value: i + 1}, `${i + 1} \u00b7 ${token}`)));
    (this.controls.words = this.controls.words || []).push(select);
    return el("label", {class: "field"}, el("span", {class: "label", text: t.pick}), select);
  }

  // ---- What a view change changes ----

  update() {
    const d = this.d, v = this.view, t = this.t, c = this.controls, total = d.steps.length;
    if (c.values) c.values.checked = v.values;
    if (c.all) c.all.checked = v.all;
    if (c.predict) c.predict.checked = v.predict;
    for (const button of c.heads || []) {
      const on = parseInt(button.textContent, 10) === v.head;
      button.setAttribute("aria-checked", on ? "true" : "false"); button.className = on ? "on" : ""; button.tabIndex = on ? 0 : -1;
    }
    for (const select of c.words || []) select.value = String(v.focus);
    const every = v.all && d.layout !== "projector";
    this.stepBar.hidden = every;
    c.select.replaceChildren(...d.steps.map((step, i) => el("option", {value: i + 1, selected: i + 1 === v.step ? true : null}, this.stepWords(i + 1))));
    c.select.value = String(v.step);
    for (const [button, edge] of [[c.previous, v.step === 1], [c.next, v.step === total]]) {
      button.setAttribute("aria-disabled", edge ? "true" : "false");
      button.classList.toggle("edge", edge);
    }
    this.hiding = v.predict && !this.revealed();
    const shown = every ? d.steps.map((s, i) => i + 1) : [v.step];
    this.main.replaceChildren(...shown.map((step, i) => this.stepNode(step, i > 0)));
    this.question.replaceChildren();
    if (d.layout === "projector" && v.predict) this.question.append(this.quiz(true));
    const focusNow = [v.head, v.focus, v.predict, this.hiding, v.hands, this.width].join("|");
    if (this.focusArea && focusNow !== this.focusDrawn) { this.focusDrawn = focusNow; this.drawFocus(); }  // only when it changed
    this.hideTip();
    this.prebuild(shown);
    requestAnimationFrame(() => { this.reachable(); this.fitWhere(); });
    if (d.layout === "projector" && !this.fitting) requestAnimationFrame(() => this.fit());
  }

  // A table wider than its box (a phone) scrolls sideways and says so: a note above it ("Scroll sideways to see the
  // whole table →"), a shadow at each edge where more of it lies, and for the keyboard and a screen reader a named
  // region the Tab key reaches (WCAG 2.1.1, 1.3.1). A matrix's box (.mx-scroll) keeps its shadow and its own name.
  sideways(box) {
    const wide = box.scrollWidth > box.clientWidth + 1, note = box.previousElementSibling && box.previousElementSibling.classList.contains("sideways") ? box.previousElementSibling : null;
    const edges = () => { const left = box.scrollLeft > 1, right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
      box.classList.toggle("wide", right); box.classList.toggle("wide-left", left); };
    if (!wide) { box.classList.remove("wide", "wide-left"); if (note) note.remove(); return; }
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", this.t.sideways_name || "");
    box.style.setProperty("--room", `${box.clientWidth - 8}px`);  // the caption stays in sight, wrapped to the box
    if (!box.__edges) { box.__edges = true; box.addEventListener("scroll", edges, {passive: true}); }
    edges();
    if (!note && this.t.sideways) box.before(el("p", {class: "sideways caption", "aria-hidden": "true", text: this.t.sideways}));
  }

  // A formula wider than its column (a narrow phone) scrolls sideways: the keyboard reaches it to scroll it (WCAG 2.1.1).
  reachable() {
    for (const formula of this.main.querySelectorAll(".formula")) {
      const scrolls = formula.scrollWidth > formula.clientWidth + 1;
      if (scrolls && formula.tabIndex !== 0) formula.tabIndex = 0;
      else if (!scrolls && formula.hasAttribute("tabindex")) formula.removeAttribute("tabindex");
    }
  }

  // On a projector the step fits the screen's height: rows get shorter (never below 12 px; numbers that no longer fit
  // are hidden, the tooltip keeps them) until the step's bottom is on the screen.
  fit(tries = 4) {
    const box = scroller(this.top);  // the page's scrolling box: what lies below the step must fit too
    const over = Math.max(this.top.getBoundingClientRect().bottom - (window.innerHeight - 6), box ? box.scrollHeight - box.clientHeight : 0);
    const tables = [...this.main.querySelectorAll("table.mx")];
    if (over <= 1 || !tables.length) return;
    const rows = Math.max(...tables.map((t) => t.tBodies[0].rows.length));
    const now = Math.max(...tables.map((t) => t.tBodies[0].rows[0].getBoundingClientRect().height));  // as drawn
    const cap = Math.max(12, now - Math.ceil(over / rows));
    if (cap >= now) return;
    this.rowCap = cap;
    this.capHeight = window.innerHeight;
    this.fitting = true;
    try { this.update(); } finally { this.fitting = false; }
    if (tries > 1) requestAnimationFrame(() => this.fit(tries - 1));  // measured again once drawn
  }

  // The steps next to the one shown are built while the browser is idle, so Next and Previous only swap them in.
  prebuild(shown) {
    clearTimeout(this.prebuilding);
    const near = [Math.min(...shown) - 1, Math.max(...shown) + 1].filter((n) => n >= 1 && n <= this.d.steps.length);
    this.prebuilding = setTimeout(() => { for (const n of near) this.stepNode(n, false); }, 120);
  }

  stepNode(number, divided) {
    const key = [number, this.view.head, this.view.values, this.hiding, this.width, this.rowCap].join("|");
    let node = this.cache.get(key);
    if (!node) { node = this.drawStep(this.d.steps[number - 1]); this.cache.set(key, node); }
    node.classList.toggle("divided", divided);
    return node;
  }

  drawStep(step) {
    const d = this.d, t = this.t, projector = d.layout === "projector";
    const section = el("section", {class: "step", "data-step": step.id, "aria-label": step.title});
    const badge = el("span", {class: "badge", text: step.badge});
    // On a projector the step list says the step's title; its heading (the outline a screen reader moves by) is for a
    // screen reader only, and shown where the list is too narrow to say it (fitWhere).
    if (projector) section.append(el("h2", {class: "step-title", text: step.title}), el("p", {class: "caption"}, badge, " ", el("span", {html: step.body})));
    else section.append(el("h2", {text: step.title}), el("p", {}, badge, " ", el("span", {html: step.body})));
    if (step.formula) section.append(el("div", {class: "formula", html: step.formula}));
    if (this.hiding && !projector && step.blocks.some((b) => b.hide)) section.append(el("p", {class: "note info", text: t.hidden}));
    for (const block of step.blocks) section.append(this.block(block, this.width));
    return section;
  }

  block(block, width) {
    const t = this.t;
    if (block.t === "note") return el("p", {class: `note ${block.tone}`, html: block.html});
    if (block.t === "chips") return el("div", {class: "chips"}, block.caption ? el("span", {class: "caption", text: block.caption}) : null,
      ...block.tokens.map((token, i) => el("span", {class: "chip"}, el("sup", {text: String(i + 1)}), token)));
    if (block.t === "row") {
      const narrow = width < 640, share = narrow ? width : Math.floor((width - 16 * (block.c.length - 1)) / block.c.length);
      return el("div", {class: "row"}, ...block.c.map((inner) => el("div", {class: "cell"}, this.block(inner, share))));
    }
    if (block.t === "options") return this.optionsBlock(block);
    if (block.t === "m") {
      if (block.hide && this.hiding) return el("p", {class: "note info", text: t.hidden_matrix});
      const id = block.h ? `${block.m}.${this.view.head}` : block.m;
      const figure = this.matrix(id, width);
      if (block.sums && this.d.layout !== "projector") return el("div", {class: "row sums-row"}, el("div", {class: "cell grow"}, figure), this.sums());
      return figure;
    }
    return el("div");
  }

  // A question with options (the lesson's stops): the class's guess opens the view's links; the answer waits for the
  // reveal. A guess, a reveal and a question for the live class go to the server, which keeps them (over a reload too).
  optionsBlock(b) {
    const t = this.t, letters = "ABCDEFGH";
    const group = el("div", {class: "segmented options", role: "radiogroup", "aria-label": b.name || t.your_guess});  // named by its stop
    b.options.forEach((label, i) => {
      const on = b.guess === i;
      group.append(el("button", {type: "button", role: "radio", "aria-checked": on ? "true" : "false", class: on ? "on" : "",
        onclick: () => { if (!on && this.setTrigger) { this.say(label); this.setTrigger("guess", {stop: b.stop, option: i}); } }},
        `${letters[i]}. ${label}`));
    });
    const box = el("div", {class: "options-quiz"}, el("p", {class: "label", text: t.your_guess}), group);
    if (b.guess === null || b.guess === undefined) box.append(el("p", {class: "caption", text: t.guess_first}));
    else {
      const reveal = el("input", {type: "checkbox", role: "switch", checked: b.revealed ? true : null,
        onchange: () => this.setTrigger && this.setTrigger("reveal", {stop: b.stop, on: reveal.checked})});
      box.append(el("p", {html: b.show}),
        el("div", {class: "links"}, ...b.links.map((link) => el("a", {class: "button", href: link.href, target: "_blank", rel: "noopener"}, link.label))),
        el("label", {class: "switch"}, reveal, el("span", {class: "track", "aria-hidden": "true"}), el("span", {text: t.reveal})));
      if (b.revealed) box.append(el("div", {class: `verdict ${b.right ? "good" : "warn"}`, role: "status", html: b.answer}));
    }
    if (this.d.ask) box.append(el("button", {type: "button", class: "ask", onclick: () => { this.setTrigger && this.setTrigger("ask", {stop: b.stop}); this.say(t.asked); }}, t.ask_live));
    return box;
  }

  values(place) { return this.f.subarray(place.o, place.o + place.s.reduce((a, b) => a * b, 1)); }

  sums() {
    const d = this.d, t = this.t, sums = this.values(d.sums[String(this.view.head)]);
    const table = el("table", {class: "plain small"}, el("caption", {text: t.sums}),
      el("thead", {}, el("tr", {}, el("th", {scope: "col", text: t.query}), el("th", {scope: "col", text: t.row_sum}))),
      el("tbody", {}, ...d.tokens.map((token, i) => el("tr", {}, el("th", {scope: "row", text: token}), el("td", {text: cellText(sums[i], 4)})))));
    return el("div", {class: "cell sums"}, table, el("p", {class: "caption", text: t.rounded}));
  }

  // ---- A matrix as a table: coloured cells, numbers where they can be read, a tooltip, the arrow keys ----

  matrix(id, width) {
    const d = this.d, t = this.t, m = d.m[id], [rows, cols] = m.s, z = this.values(m);
    const projector = d.layout === "projector", font = d.font, least = projector ? 16 : 12;
    const texts = Array.from(z, (x) => cellText(x, m.dec));
    let height = projector ? Math.max(font + 9, Math.min(font + 21, Math.floor(310 / rows))) : rows <= 16 ? 30 : Math.max(12, Math.min(30, Math.floor(640 / rows)));
    // Fitting a projector's height, rows get shorter down to a row label's line, and the labels smaller down to 16 px.
    let labelFont = Math.max(least, font - (Math.max(rows, cols) > 16 ? 2 : 0));
    if (projector && this.rowCap) labelFont = Math.max(least, Math.min(labelFont, Math.floor((this.rowCap - 2) / 1.15)));
    if (projector && this.rowCap) height = Math.max(Math.ceil(labelFont * 1.15) + 2, Math.min(height, this.rowCap));
    const tickFont = projector ? 16 : 12;
    const rowLabel = Math.min(Math.ceil(Math.max(...m.rows.map((s) => textWidth(s, labelFont)), 8)) + 12, Math.max(60, width * 0.28));
    const [lo0, hi0] = m.range, tickDigits = Math.abs(hi0) >= 100 ? 0 : 2;
    const legend = 10 + 3 + Math.ceil(Math.max(...[lo0, 0, hi0].map((v) => textWidth(cellText(v, tickDigits), tickFont)))) + 6;
    const yTitle = Math.ceil(tickFont * 1.6);
    const room = width - rowLabel - legend - yTitle - 8 - (cols + 2);  // gaps, and the 1 px between cells
    const cell = Math.max(projector ? 8 : 4, Math.min(projector ? 110 : 76, Math.floor(room / cols)));
    // Numbers in cells: when asked for, when the matrix is small enough to read, and never smaller than readable.
    let numberFont = 0;
    if (this.view.values && m.readable) {
      const widest = Math.max(...texts.map((s) => textWidth(s, 1)));
      for (let px = font; px >= least; px--) if (widest * px + 4 <= cell && px + 4 <= height) { numberFont = px; break; }
    }
    const scale = this.d.scales[m.kind], [lo, hi] = m.range;
    const table = el("table", {class: "mx", style: {"--cell": `${cell}px`, "--row": `${height}px`, "--font": `${numberFont || font}px`, "--label": `${labelFont}px`}});
    table.append(el("caption", {class: "sr-only", text: m.title}));
    // The cells as one piece of HTML (a 40 x 40 matrix is 1,600 cells: made as text, parsed once, several times faster
    // than a node at a time); every label is escaped, so a token is always text.
    const every = this.labelStride(m.cols, cell, labelFont), group = cols / (m.groups || 1);
    const parts = ['<thead><tr><td class="corner" aria-hidden="true"></td>'];
    m.cols.forEach((label, j) => {
      const boundary = j > 0 && m.groups > 1 && j % group === 0 ? " g" : "";
      parts.push(`<th scope="col" class="${every.vertical ? "v" : ""}${boundary}"><span class="${j % every.stride === 0 ? "lab" : "sr-only"}">${escape(label)}</span></th>`);
    });
    parts.push("</tr></thead><tbody>");
    const hidden = numberFont ? "" : ' class="sr-only"', span = (hi - lo) || 1;
    for (let i = 0; i < rows; i++) {
      parts.push(`<tr><th scope="row" class="rl" title="${escape(m.rows[i])}"><span class="lab">${escape(m.rows[i])}</span></th>`);
      for (let j = 0; j < cols; j++) {
        const x = z[i * cols + j], boundary = j > 0 && m.groups > 1 && j % group === 0 ? " g" : "";
        let look;
        if (Number.isFinite(x)) {
          const [background, ink] = paint(scale, (x - lo) / span);
          look = `${boundary ? ' class="g"' : ""} style="background:${background};color:${ink}"`;
        } else look = ` class="${x === -Infinity ? "masked" : "blank"}${boundary}"`;
        parts.push(`<td${look} tabindex="${i === 0 && j === 0 ? 0 : -1}" data-i="${i}" data-j="${j}"><span${hidden}>${texts[i * cols + j]}</span></td>`);
      }
      parts.push("</tr>");
    }
    parts.push("</tbody>");
    table.insertAdjacentHTML("beforeend", parts.join(""));
    table.addEventListener("pointerover", (event) => { const td = event.target.closest("td[data-i]"); if (td && event.pointerType !== "touch") this.showTip(m, id, td); });
    table.addEventListener("pointerleave", () => this.hideTip());
    table.addEventListener("click", (event) => { const td = event.target.closest("td[data-i]"); if (td) this.showTip(m, id, td); });
    table.addEventListener("focusin", (event) => { const td = event.target.closest("td[data-i]"); if (td) this.showTip(m, id, td); });
    table.addEventListener("focusout", () => this.hideTip());
    table.addEventListener("keydown", (event) => this.walkCells(event, table, rows, cols));
    const title = el("figcaption", {class: "mx-title", style: m.hue ? {color: m.hue} : {}, text: m.title});
    const xTitle = el("div", {class: "x-title", "aria-hidden": "true", style: {paddingLeft: `${rowLabel + yTitle}px`}, text: `${m.ca} \u2192`});
    // Chinese runs down the side upright, one character under another (the arrow turns to point down); English is turned
    // to read from the bottom. A vertical line of upright characters turned 180° would stand every character on its head.
    const upright = /[\u3400-\u9fff\uf900-\ufaff]/u.test(m.ra);
    // (rows run down: upright, → turns to point down; turned to read from the bottom, ← does)
    const yTitleNode = el("div", {class: upright ? "y-title upright" : "y-title", "aria-hidden": "true", text: `${m.ra} ${upright ? "\u2192" : "\u2190"}`});
    const scroller = el("div", {class: "mx-scroll"}, table);
    const figure = el("figure", {class: "matrix", role: "figure", "aria-label": m.alt, "data-matrix": id},
      title, xTitle, el("div", {class: "mx-body"}, yTitleNode, scroller, this.legend(m)));
    if (this.view.values && m.readable && !numberFont) figure.append(el("p", {class: "caption", text: t.numbers_hidden}));
    requestAnimationFrame(() => { if (scroller.scrollWidth > scroller.clientWidth + 1) { scroller.tabIndex = 0; scroller.classList.add("wide"); } });
    return figure;
  }

  // Column labels: across when they fit a cell, else upright; when even upright they run together, every k-th
  // (a screen reader still hears every one).
  labelStride(labels, cell, px) {
    const widest = Math.max(...labels.map((s) => textWidth(s, px)), 1);
    if (widest + 6 <= cell) return {stride: 1, vertical: false};
    const numbered = labels.every((s, i) => s === String(i + 1));
    if (numbered && labels.length > 16) return {stride: Math.ceil(labels.length / 8), vertical: false};
    return {stride: Math.max(1, Math.ceil((px + 4) / cell)), vertical: true};
  }

  legend(m) {
    const [lo, hi] = m.range, stops = this.d.scales[m.kind].map(([at, colour]) => `${colour} ${(100 - at * 100).toFixed(1)}%`).reverse();
    // a bar for one or two rows has room for its two ends only: the middle label would lie on them
    const mid = m.kind === "weights" || m.rows.length < 3 ? null : 0;
    const label = (value) => el("span", {text: cellText(value, Math.abs(hi) >= 100 ? 0 : 2)});  // as the width was measured
    return el("div", {class: "legend", "aria-hidden": "true"},
      el("div", {class: "ramp", style: {background: `linear-gradient(to bottom, ${stops.join(", ")})`}}),
      el("div", {class: "ticks"}, label(hi), mid === null ? el("span") : label(mid), label(lo)));
  }

  walkCells(event, table, rows, cols) {
    const td = event.target.closest("td[data-i]");
    if (!td) return;
    let i = +td.dataset.i, j = +td.dataset.j;
    const moves = {ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0]};
    if (event.key === "Escape") { this.hideTip(); return; }
    if (event.key === "Home") j = 0; else if (event.key === "End") j = cols - 1;
    else if (moves[event.key]) { i = Math.min(rows - 1, Math.max(0, i + moves[event.key][0])); j = Math.min(cols - 1, Math.max(0, j + moves[event.key][1])); }
    else return;
    event.preventDefault(); event.stopPropagation();
    const target = table.querySelector(`td[data-i="${i}"][data-j="${j}"]`);
    if (target && target !== td) { td.tabIndex = -1; target.tabIndex = 0; target.focus(); }
  }

  // The tooltip: which query and key, the number, and for a raw score its arithmetic term by term.
  showTip(m, id, td) {
    const i = +td.dataset.i, j = +td.dataset.j, [, cols] = m.s, x = this.values(m)[i * cols + j];
    if (Number.isNaN(x)) { this.hideTip(); return; }
    const lines = [el("div", {}, `${m.hr}: ${m.rows[i]}`), el("div", {}, `${m.hc}: ${m.cols[j]}`), el("div", {class: "value"}, `= ${cellText(x, m.dec)}`)];
    if (m.arith && Number.isFinite(x)) lines.push(...this.arithmetic(m, i, j));
    this.tip.replaceChildren(...lines);
    this.tip.hidden = false;
    td.setAttribute("aria-describedby", "steps-tip");
    const box = td.getBoundingClientRect(), host = this.top.getBoundingClientRect();
    const left = Math.min(box.left - host.left + box.width / 2 + 8, host.width - 260);
    this.tip.style.left = `${Math.max(0, left)}px`;
    // below the cell, or above it where the screen's bottom would cut it (a cell near the bottom of a projector)
    const tall = this.tip.offsetHeight, below = box.bottom + 6 + tall <= window.innerHeight - 4 || box.top - 6 - tall < 0;
    this.tip.style.top = `${below ? box.bottom - host.top + 6 : box.top - host.top - 6 - tall}px`;
  }

  hideTip() { if (this.tip) this.tip.hidden = true; }

  // q_i·k_j term by term, as numbers.js's dotTerms writes it: text and subscripts, one element per line.
  arithmetic(m, i, j) {
    const d = this.d, q = d.m[m.arith.q], k = d.m[m.arith.k], width = q.s[1];
    const qi = this.values(q).subarray(i * width, (i + 1) * width), kj = this.values(k).subarray(j * width, (j + 1) * width);
    const places = this.values(m.arith.p)[i * m.s[1] + j], score = this.values(m)[i * m.s[1] + j];
    return dotTerms(qi, kj, i, j, places, score).map((parts) => el("div", {}, ...parts.map((part) => typeof part === "string" ? part : el("sub", {text: part.sub}))));
  }

  // ---- Focus on one word, and Predict first ----

  quizKey() { return `${QUIZ}${this.d.id}.${this.view.head}.${this.view.focus}`; }
  quizState() { return readStore(this.quizKey()) || {}; }
  revealed() { return !!this.quizState().revealed; }

  weightsRow() {
    const d = this.d, m = d.m[`weights.${this.view.head}`], n = m.s[1], i = this.view.focus - 1;
    return this.values(m).subarray(i * n, (i + 1) * n);
  }

  quiz(compact) {
    const d = this.d, t = this.t, keys = d.keys, token = d.tokens[this.view.focus - 1], stateNow = this.quizState();
    const box = el("div", {class: `quiz ${compact ? "compact" : ""}`});
    const label = (j) => `${j + 1} \u00b7 ${keys[j]}`;
    if (stateNow.revealed) {
      const weights = this.weightsRow();
      let best = 0; for (let j = 1; j < weights.length; j++) if (weights[j] > weights[best]) best = j;
      const guess = stateNow.guess, amount = stateNow.amount;
      const verdict = guess !== best ? "wrong_key" : Math.abs(amount - weights[best]) <= 0.1 + 1e-9 ? "right" : "off_weight";
      const detail = verdict === "wrong_key" ? fill(t.wrong_key, {token: label(guess), weight: cellText(weights[guess], 2)}) : t[verdict];
      const mine = fill(t.your_guess, {token: label(guess), weight: cellText(amount, 2)});
      const answer = fill(t.answer, {token: label(best), weight: cellText(weights[best], 2)});
      const again = el("button", {type: "button", onclick: () => { writeStore(this.quizKey(), {}); this.cache.clear(); this.focusDrawn = null; this.update(); this.say(t.predict_word.replace("{token}", token)); }}, t.again);
      const words = compact ? (verdict === "off_weight" ? [detail, mine, answer] : [detail, answer]) : [detail, mine, answer];
      box.append(el("div", {class: `verdict ${verdict === "right" ? "good" : "warn"}`, role: "status"}, ...words.map((w) => el("p", {text: w}))), again);
      return box;
    }
    const which = el("select", {"aria-label": t.which},
      el("option", {value: "", text: t.pick_key}), ...keys.map((key, j) => el("option", {value: j}, label(j))));
    const amount = el("input", {type: "range", min: 0, max: 1, step: 0.05, value: 0.5, "aria-label": t.how_much});
    const shown = el("output", {text: "0.50"});
    amount.addEventListener("input", () => { shown.textContent = numberText(units(+amount.value, 2), 2); });
    const reveal = el("button", {type: "button", class: "primary", disabled: true, onclick: () => {
      writeStore(this.quizKey(), {guess: parseInt(which.value, 10), amount: +amount.value, revealed: true});
      this.cache.clear(); this.focusDrawn = null; this.update();
      const next = this.top.querySelector(".verdict"); if (next) this.say(next.textContent);
    }}, t.reveal);
    which.addEventListener("change", () => { reveal.disabled = which.value === ""; });
    box.append(el("p", {class: "note info", text: fill(t.predict_word, {token})}),
      el("div", {class: "quiz-row"}, el("label", {class: "field"}, el("span", {class: "label", text: t.which}), which),
        el("label", {class: "field"}, el("span", {class: "label", text: t.how_much}), el("span", {class: "range"}, amount, shown)), reveal));
    return box;
  }

  drawFocus() {
    const d = this.d, t = this.t, v = this.view, area = this.focusArea;
    if (!this.focusBuilt) {
      this.focusBuilt = true;
      this.focusBody = el("div", {class: "focus-body"});
      const hands = this.switchControl(t.hands_on, "hands", t.hands_on_help);
      const parts = [el("h2", {text: t.focus_title}), el("div", {class: "focus-controls"}, this.wordSelect(), this.switchControl(t.predict, "predict", t.predict_help)), this.focusBody];
      if (d.ask) parts.push(el("button", {type: "button", class: "ask", onclick: () => {
        this.setTrigger && this.setTrigger("ask", {head: this.view.head, focus: this.view.focus}); this.say(t.asked); }}, t.ask_live));
      parts.push(hands);
      area.replaceChildren(...parts);
      for (const select of this.controls.words || []) select.value = String(v.focus);
      if (this.controls.predict) this.controls.predict.checked = v.predict;
    }
    if (this.controls.hands) this.controls.hands.checked = v.hands;
    this.focusBody.replaceChildren();
    if (v.predict) {
      this.focusBody.append(this.quiz(false));
      if (!this.revealed()) return;
    }
    this.focusBody.append(...this.focusTables());
  }

  focusTables() {
    const d = this.d, t = this.t, v = this.view, h = v.head, i = v.focus - 1, focus = d.focus, meta = focus.heads[h - 1];
    const row = (id) => { const m = d.m[`${id}.${h}`], c = m.s[1]; return this.values(m).subarray(i * c, (i + 1) * c); };
    const [places, terms] = Array.from(this.values(meta.places).subarray(i * 2, i * 2 + 2));
    const vm = d.m[`v.${h}`], dv = vm.s[1], token = d.tokens[i];
    const table = focusTables(row("raw"), row("masked"), row("weights"), this.values(vm), dv, row("output"), meta.divisor, places, terms,
      d.keys, focus.dims, focus.decimals);
    const scores = el("table", {class: "plain"}, el("caption", {text: fill(t.caption, {token})}),
      el("thead", {}, el("tr", {}, ...[t.position, t.key, t.score, fill(t.scaled, {divisor: table.divisor}), t.weight].map((s) => el("th", {scope: "col", text: s})))),
      el("tbody", {}, ...table.scores.map(([j, key, score, scaled, weight]) => el("tr", {}, el("td", {text: j}), el("th", {scope: "row", text: key}),
        el("td", {text: score}), el("td", {text: scaled}), el("td", {text: weight})))));
    const weighted = el("table", {class: "plain"}, el("caption", {text: fill(t.weighted, {token})}),
      el("thead", {}, el("tr", {}, el("td", {}), ...Array.from({length: table.shown}, (_, s) => el("th", {scope: "col", text: String(s + 1)})))),
      el("tbody", {}, ...table.weighted.map(([name, ...cells]) => el("tr", {}, el("th", {scope: "row", text: name}), ...cells.map((c) => el("td", {text: c})))),
        el("tr", {class: "total"}, el("th", {scope: "row", text: t.sum}), ...table.sum.map((c) => el("td", {text: c})))));
    const parts = [el("div", {class: "table-scroll"}, scores), el("div", {class: "table-scroll"}, weighted)];
    if (dv > table.shown) parts.push(el("p", {class: "caption", text: fill(t.first_dims, {shown: table.shown, d_v: dv})}));
    requestAnimationFrame(() => { for (const box of parts) if (box.classList.contains("table-scroll")) this.sideways(box); });
    return parts;
  }

  // ---- Downloads: CSV of this step or of every step, PNG of a matrix ----

  matricesOf(steps) {
    const d = this.d, ids = [];
    const walk = (block) => {
      if (block.t === "row") block.c.forEach(walk);
      else if (block.t === "m" && !(block.hide && this.hiding)) ids.push(block.h ? `${block.m}.${this.view.head}` : block.m);
    };
    for (const step of steps) step.blocks.forEach(walk);
    return ids;
  }

  fillDownloads() {
    const d = this.d, t = this.t, v = this.view, every = v.all;
    const menu = el("div", {class: "menu-items"});
    const steps = every ? d.steps : [d.steps[v.step - 1]];
    const name = `${d.csv}-${every ? "all-steps" : steps[0].id}`;
    menu.append(el("button", {type: "button", onclick: () => this.download(`${name}.csv`, this.csv(this.matricesOf(steps)), "text/csv")}, every ? t.csv_all : t.csv_step));
    for (const id of this.matricesOf(steps)) menu.append(el("button", {type: "button", onclick: () => this.png(id)}, fill(t.png, {title: d.m[id].title})));
    this.downloads.querySelector(".menu-items")?.remove();
    this.downloads.append(menu);
  }

  csv(ids) {
    const d = this.d, t = this.t, quote = (s) => /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    const number = (x) => Number.isNaN(x) ? "" : x === -Infinity ? "-inf" : x === Infinity ? "inf" : String(x);
    return ids.map((id) => {
      const m = d.m[id], [rows, cols] = m.s, z = this.values(m);
      const lines = [[t.row, ...m.cols.map((c, j) => `${j + 1}:${c}`)].map(quote).join(",")];
      for (let i = 0; i < rows; i++) lines.push([quote(`${i + 1}:${m.rows[i]}`), ...Array.from(z.subarray(i * cols, (i + 1) * cols), number)].join(","));
      return `# ${m.title}\n${lines.join("\n")}\n`;
    }).join("\n");
  }

  download(name, text, type) {
    const link = el("a", {href: URL.createObjectURL(new Blob([text], {type})), download: name});
    document.body.append(link); link.click(); link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  }

  png(id) {
    const d = this.d, m = d.m[id], [rows, cols] = m.s, z = this.values(m), scale = 2, cell = Math.max(14, Math.min(48, Math.floor(900 / cols)));
    const label = 120, top = 70, rowH = Math.max(14, Math.min(30, Math.floor(900 / rows))), legend = 60;
    const canvas = document.createElement("canvas");
    canvas.width = (label + cols * cell + legend + 20) * scale; canvas.height = (top + rows * rowH + 20) * scale;
    const g = canvas.getContext("2d");
    g.scale(scale, scale); g.fillStyle = "#fff"; g.fillRect(0, 0, canvas.width, canvas.height);
    g.fillStyle = m.hue || "#1f2430"; g.font = "bold 16px sans-serif"; g.fillText(m.title, 10, 22);
    g.font = "12px sans-serif"; g.fillStyle = "#1f2430"; g.fillText(`${m.ca} \u2192`, label, 40);
    const [lo, hi] = m.range, small = cell >= 40 && rowH >= 18 && m.readable;
    for (let j = 0; j < cols; j++) { g.save(); g.translate(label + j * cell + cell / 2, top - 6); if (cell < 40) g.rotate(-Math.PI / 2); g.textAlign = cell < 40 ? "left" : "center"; g.fillText(m.cols[j].slice(0, 12), 0, 0); g.restore(); }
    for (let i = 0; i < rows; i++) {
      g.fillStyle = "#1f2430"; g.textAlign = "right"; g.fillText(m.rows[i].slice(0, 16), label - 6, top + i * rowH + rowH / 2 + 4);
      for (let j = 0; j < cols; j++) {
        const x = z[i * cols + j];
        const colour = Number.isFinite(x) ? colourAt(d.scales[m.kind], (x - lo) / ((hi - lo) || 1)) : [240, 240, 240];
        g.fillStyle = css(colour); g.fillRect(label + j * cell, top + i * rowH, cell - 1, rowH - 1);
        if (small) { g.fillStyle = inkOn(colour); g.textAlign = "center"; g.fillText(cellText(x, m.dec), label + j * cell + cell / 2, top + i * rowH + rowH / 2 + 4); }
      }
    }
    const ramp = g.createLinearGradient(0, top, 0, top + rows * rowH);
    for (const [at, colour] of d.scales[m.kind]) ramp.addColorStop(1 - at, colour);
    g.fillStyle = ramp; g.fillRect(label + cols * cell + 12, top, 12, rows * rowH);
    g.fillStyle = "#1f2430"; g.textAlign = "left";
    g.fillText(cellText(hi, 2), label + cols * cell + 28, top + 10); g.fillText(cellText(lo, 2), label + cols * cell + 28, top + rows * rowH);
    canvas.toBlob((blob) => {
      const link = el("a", {href: URL.createObjectURL(blob), download: `${d.csv}-${id.replace(/\W+/g, "-")}.png`});
      document.body.append(link); link.click(); link.remove();
    });
  }

  destroy() { this.onResize.disconnect(); live.delete(this); document.removeEventListener("pointerdown", this.outside, true); }
}

// ← and → step the component on screen (not while typing, on a slider, in a list or in a chart's toolbar).
if (!window.__attentionStepKeys) {
  window.__attentionStepKeys = true;
  document.addEventListener("keydown", (event) => {
    const by = {ArrowLeft: -1, ArrowRight: 1}[event.key];
    if (!by || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.composedPath()[0];
    if (target && target.closest && target.closest("input:not([type=checkbox]), textarea, select, [contenteditable=true], [role=slider], [role=radiogroup], [role=toolbar], td, [role=dialog]")) return;
    const steps = [...live].find((s) => s.root.isConnected && s.d && !(s.view.all && s.d.layout !== "projector"));
    if (!steps) return;
    event.preventDefault();
    steps.move(by);
  });
}

export default function (component) {
  const {data, parentElement, setStateValue, setTriggerValue} = component;
  const root = parentElement.querySelector(".steps-root") || parentElement.appendChild(el("div", {class: "steps-root"}));
  const steps = root.__steps || (root.__steps = new Steps(root));
  if (data && data.byteLength) steps.load(data, setStateValue, setTriggerValue);
  return () => steps.destroy();
}

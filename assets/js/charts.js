// Charts are drawn when they come near the screen; in the head of every page, before Streamlit loads Plotly (scripts/paths.PageScripts).
const host = window;
if (!host.__attentionCharts) {
  // Only charts on or near the screen are drawn: Plotly takes a third of a second for a 40 x 40 heatmap on a
  // school laptop, and "Show all steps" has sixteen. A chart waits (its height kept) until it comes within half a screen
  // of the view, and a chart off the screen is redrawn only when it comes back. Streamlit's chart calls
  // Plotly.react on the module it sets as window.Plotly, and chains its events after that promise.
  const lazy = (Plotly) => {
    if (!Plotly || Plotly.__attentionLazy) return;
    Plotly.__attentionLazy = true;
    // The toolbar in Chinese: a chart of a Chinese page has config.locale "zh-CN" (views/charts.plotly_config).
    const texts = host.__attentionTexts || {}, en = texts.en || {}, zh = texts.zh || {}, dictionary = {};
    for (const key of Object.keys(en)) if (key.startsWith("plotly.") && zh[key]) dictionary[en[key]] = zh[key];
    if (Plotly.register) Plotly.register({moduleType: "locale", name: "zh-CN", dictionary});
    const react = Plotly.react, purge = Plotly.purge, waiting = new Map();  // chart div -> draw it
    // The chart's div stays hidden (display: none) until it has a height, so the box around it holds the place and is watched.
    const box = (gd) => gd.closest("[data-testid=stPlotlyChart]") || gd;
    // Near means within half a screen of what the main area shows: it scrolls, and a margin counts only on the root.
    const scroller = (element) => element.closest("[data-testid=stMain]");
    const charts = new WeakMap(), observers = new Map();  // watched box -> chart div; scrolling area -> its observer
    const watcher = (place) => {
      const root = scroller(place);
      if (!observers.has(root)) observers.set(root, new IntersectionObserver((entries) => {
        for (const entry of entries) if (entry.isIntersecting) draw(charts.get(entry.target));
      }, {root, rootMargin: "50% 0px"}));
      return observers.get(root);
    };
    const text = (trace) => JSON.stringify(trace, (key, value) => key.startsWith("_") ? undefined : value);  // Plotly adds _ keys
    const same = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length
      && a.every((trace, i) => trace === b[i] || text(trace) === text(b[i]));
    const draw = (gd) => { const go = gd && waiting.get(gd); if (go) { waiting.delete(gd); delete gd.dataset.waiting; go(); } };
    // Plotly never wraps a title: one wider than its chart is cut at the edge (a half-width chart on a projector, a
    // phone). Once drawn, such a title is broken onto lines at spaces (or between characters, for Chinese), the room
    // above the plot grows by a line each, and the chart keeps that title while its text and width stay the same.
    // Plotly centres a title of several lines on its anchor, so the first line would rise above the chart: the pad
    // at the top grows by half a line for each line added.
    const wrapped = new WeakMap();  // chart div -> {text, width, lines, top, pad}
    const fitted = (gd, figure) => {
      const known = wrapped.get(gd), layout = figure && figure.layout, title = layout && layout.title;
      if (!known || !title || title.text !== known.text || layout.width !== known.width) return figure;
      return {...figure, layout: {...layout, title: {...title, text: known.lines, pad: {...title.pad, t: known.pad}}, margin: {...layout.margin, t: known.top}}};
    };
    // Column labels above the cells turn upright on a narrow chart and, with their axis title, can then reach the title,
    // as can a legend above the plot that a phone breaks onto two rows: the room above the plot grows by the overlap,
    // measured once drawn, and is kept like a wrapped title.
    const clear = (gd, tries = 3) => {
      const node = gd.querySelector(".g-gtitle .gtitle"), layout = gd.layout || {}, title = layout.title;
      if (!node || !title || typeof title.text !== "string") return;
      const below = [...gd.querySelectorAll(".g-xtitle text, .xtick text, .legend .traces")].map((n) => n.getBoundingClientRect()).filter((r) => r.height > 0);
      if (!below.length) return;
      const overlap = Math.ceil(node.getBoundingClientRect().bottom + 3 - Math.min(...below.map((r) => r.top)));
      if (overlap <= 0 || tries <= 0) return;
      const top = ((layout.margin && layout.margin.t) || 80) + overlap, known = wrapped.get(gd);
      wrapped.set(gd, known ? {...known, top} : {text: title.text, width: layout.width, lines: title.text, top, pad: (title.pad && title.pad.t) || 0});
      Plotly.relayout(gd, {"margin.t": top}).then(() => clear(gd, tries - 1));  // measured again once redrawn
    };
    const fit = (gd) => {
      const node = gd.querySelector(".g-gtitle .gtitle"), layout = gd.layout || {}, title = layout.title;
      if (!node || !title || typeof title.text !== "string" || title.text.includes("<br>")) return clear(gd);
      const width = node.getBoundingClientRect().width, room = gd.getBoundingClientRect().right - node.getBoundingClientRect().left - 6;
      if (width <= room || room < 40) return clear(gd);
      const plain = title.text.replace(/<[^>]*>/g, "");
      const fits = Math.floor(plain.length * room / width), even = Math.ceil(plain.length / Math.ceil(width / room));
      const most = Math.max(4, Math.min(fits, even + 6));  // characters on a line: lines of about equal length
      // Chinese (even with a few spaces): one character at a time, a run of Latin letters and digits kept whole, each
      // with the tags around it (<b> never split); otherwise at spaces.
      const chinese = /[\u3000-\u9fff\uff00-\uffef]/u.test(plain);
      const pieces = chinese ? title.text.match(/(?:<[^>]*>)*(?:[\x21-\x3b\x3d-\x7e]+|[^<])(?:<\/[^>]*>)*/gu) : title.text.split(" ");
      const glue = chinese ? "" : " ", lines = [""];
      for (const piece of pieces) {
        const line = lines[lines.length - 1];
        if (line && (line + glue + piece).replace(/<[^>]*>/g, "").length > most) lines.push(piece); else lines[lines.length - 1] = line ? line + glue + piece : piece;
      }
      const size = (title.font && title.font.size) || 14, top = ((layout.margin && layout.margin.t) || 80) + Math.round(size * 1.25) * (lines.length - 1);
      const pad = ((title.pad && title.pad.t) || 0) + Math.round(size * 0.65) * (lines.length - 1);
      wrapped.set(gd, {text: title.text, width: layout.width, lines: lines.join("<br>"), top, pad});
      Plotly.relayout(gd, {"title.text": lines.join("<br>"), "margin.t": top, "title.pad.t": pad}).then(() => clear(gd));
    };
    // Numbers in a heatmap's cells are black or white, whichever contrasts more with the cell's colour (at least 4.58:1
    // on any colour); Plotly picks #444 on a light cell, under 4.5:1 on a mid-blue. The colour is found as Plotly finds
    // it: the value's place between zmin and zmax, interpolated in RGB between the scale's stops. theme.css draws data-ink.
    const rgb = (c) => c.startsWith("#") ? [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)) : c.match(/[\d.]+/g).slice(0, 3).map(Number);
    const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    const colourOf = (trace, z) => {
      const scale = trace.colorscale, t = Math.min(1, Math.max(0, (z - trace.zmin) / ((trace.zmax - trace.zmin) || 1)));
      let i = 1; while (i < scale.length - 1 && scale[i][0] < t) i++;
      const [t0, c0] = scale[i - 1], [t1, c1] = scale[i], f = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
      return rgb(c0).map((v, k) => v + (rgb(c1)[k] - v) * f);
    };
    const ink = (gd) => {
      for (const text of gd.querySelectorAll("g.heatmap-label text")) {
        const cell = text.__data__, layer = text.closest("g.hm"), calc = layer && layer.__data__, trace = calc && calc[0] && calc[0].trace;
        if (!cell || typeof cell.z !== "number" || !trace || !Array.isArray(trace.colorscale)) continue;
        const light = luminance(colourOf(trace, cell.z));
        text.dataset.ink = (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) ? "dark" : "light";
      }
    };
    // A chart read by a screen reader: Streamlit names its box (role "figure", aria-label: the text alternative made with
    // the chart, attention_plot/plot.labels and describe); its numbers follow as a visually hidden table, made here from
    // the figure (a heatmap of at most TABLE_CELLS cells: its printed numbers; a line or bar chart: its points).
    const TABLE_CELLS = 400, TABLE_ROWS = 60;
    const TYPED = {f8: Float64Array, f4: Float32Array, i4: Int32Array, i2: Int16Array, i1: Int8Array, u1: Uint8Array, u2: Uint16Array, u4: Uint32Array};
    const values = (v) => {  // Plotly's JSON keeps NumPy arrays as {dtype, bdata: base64}
      if (!v || !v.bdata) return Array.isArray(v) ? v : [];
      const bytes = Uint8Array.from(atob(v.bdata), (c) => c.charCodeAt(0)), Typed = TYPED[v.dtype];
      return Typed ? Array.from(new Typed(bytes.buffer)) : [];
    };
    const words = (html) => new DOMParser().parseFromString(String(html == null ? "" : html).replace(/<br>/g, " "), "text/html").body.textContent.trim();
    // Four significant digits, never in exponent form (a probability of 2.5e-8 reads 0.000, as the chart prints it).
    const shown = (v) => typeof v === "number" ? (Number.isInteger(v) ? String(v) : Math.abs(v) < 5e-4 ? "0.000"
      : String(Number(v.toPrecision(4)))).replace("-", "−") : words(v);
    const axis = (layout, name) => words(layout && layout[name] && layout[name].title && layout[name].title.text);
    const grid = (figure) => {  // [header row, ...body rows] or null
      const data = (figure && figure.data) || [], layout = (figure && figure.layout) || {}, first = data[0];
      if (!first) return null;
      if (first.type === "heatmap") {
        const text = first.text, custom = first.customdata;
        if (!Array.isArray(text) || !Array.isArray(text[0]) || !Array.isArray(custom) || text.length * text[0].length > TABLE_CELLS) return null;
        const corner = `${axis(layout, "yaxis")} \\ ${axis(layout, "xaxis")}`;
        return [[corner, ...custom[0].map((cell) => words(cell[1]))], ...text.map((row, i) => [words(custom[i][0][0]), ...row.map(words)])];
      }
      const traces = data.filter((t) => t.type === "scatter" || t.type === "bar");
      if (!traces.length || traces.length > 8) return null;
      const names = (t) => t.customdata && !Array.isArray(t.customdata[0]) ? t.customdata.map(words) : null;
      const x = (t) => t.orientation === "h" ? (names(t) || values(t.y)) : (names(t) || values(t.x));
      const y = (t) => t.orientation === "h" ? values(t.x) : values(t.y);
      const along = x(traces[0]);
      if (!along.length || along.length > TABLE_ROWS || traces.some((t) => x(t).length !== along.length)) return null;
      const header = [axis(layout, "xaxis") || "", ...traces.map((t, i) => words(t.name) || axis(layout, "yaxis") || String(i + 1))];
      return [header, ...along.map((at, i) => [shown(at), ...traces.map((t) => shown(y(t)[i]))])];
    };
    const numbers = (place, figure) => {
      let holder = place.querySelector(":scope > div.attention-numbers");
      const rows = grid(figure);
      if (!rows) { if (holder) holder.remove(); return; }
      // In a box of 1 x 1 pixels (a table is always as tall as its rows), first in the chart's box: at its top left
      // it never makes the box scroll.
      if (!holder) { holder = document.createElement("div"); holder.className = "attention-numbers"; place.prepend(holder); }
      const table = document.createElement("table");
      holder.replaceChildren(table);
      table.createCaption().textContent = words(figure.layout && figure.layout.title && figure.layout.title.text);
      rows.forEach((row, i) => {
        const tr = (i === 0 ? table.createTHead() : table.tBodies[0] || table.createTBody()).insertRow();
        row.forEach((cell, j) => { const c = document.createElement(i === 0 || j === 0 ? "th" : "td"); if (c.tagName === "TH") c.scope = i === 0 ? "col" : "row"; c.textContent = cell; tr.appendChild(c); });
      });
    };
    // On a touch screen Plotly makes a click only where the finger had shown the hover label, so a tap on a tile or a
    // patch first showed its label and only a second tap opened it: a chart that takes clicks (clickmode "event…") is
    // hovered where the finger lands, before Plotly reads the tap.
    const tapped = new WeakSet();
    const tap = (gd) => {
      if (tapped.has(gd) || !Plotly.Fx || !String((gd._fullLayout || {}).clickmode || "").includes("event")) return;
      tapped.add(gd);
      gd.addEventListener("touchstart", (event) => {
        const touch = event.touches && event.touches[0], target = touch && event.target.closest && event.target.closest(".nsewdrag");
        if (target) Plotly.Fx.hover(gd, {clientX: touch.clientX, clientY: touch.clientY, target}, "xy");
      }, {capture: true, passive: true});
    };
    const inked = new WeakSet();
    const drawn = (gd, figure, rest) => react.call(Plotly, gd, fitted(gd, figure), ...rest).then((result) => {
      if (!inked.has(gd) && gd.on) { inked.add(gd); gd.on("plotly_afterplot", () => ink(gd)); }
      fit(gd); ink(gd); tap(gd); return result;
    });
    Plotly.react = function (gd, figure, ...rest) {
      numbers(box(gd), figure);
      // The numbers it shows handed back once drawn (Streamlit keeps the figure as state, and sizes it): at once.
      if (gd._fullLayout && figure && same(figure.data, gd.data)) return drawn(gd, figure, rest);
      return new Promise((resolve, reject) => {
        const place = box(gd), height = figure && figure.layout && figure.layout.height;
        if (!gd._fullLayout && height) place.style.minHeight = `${height}px`;  // the page does not jump when it is drawn
        const near = watcher(place);
        waiting.set(gd, () => { near.unobserve(place); place.style.minHeight = ""; drawn(gd, figure, rest).then(resolve, reject); });
        charts.set(place, gd);
        gd.dataset.waiting = "";  // for the tests and the benchmark: drawn when it comes near
        near.observe(place);
      });
    };
    Plotly.purge = function (gd) { for (const near of observers.values()) near.unobserve(box(gd)); waiting.delete(gd); delete gd.dataset.waiting; return purge.call(this, gd); };
    host.__attentionCharts.drawAll = () => { const all = [...waiting.keys()]; for (const gd of all) draw(gd); return all.length; };
    host.addEventListener("beforeprint", () => host.__attentionCharts.drawAll());  // a printed page has every chart
  };
  host.__attentionCharts = {drawAll: () => {}};
  if (host.Plotly) lazy(host.Plotly);
  else {  // Streamlit loads Plotly with the first chart
    let plotly;
    Object.defineProperty(host, "Plotly", {configurable: true, get: () => plotly, set: (value) => { plotly = value; lazy(value); }});
  }
}

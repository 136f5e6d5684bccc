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
    const fit = (gd) => {
      const node = gd.querySelector(".g-gtitle .gtitle"), layout = gd.layout || {}, title = layout.title;
      if (!node || !title || typeof title.text !== "string" || title.text.includes("<br>")) return;
      const width = node.getBoundingClientRect().width, room = gd.getBoundingClientRect().right - node.getBoundingClientRect().left - 6;
      if (width <= room || room < 40) return;
      const plain = title.text.replace(/<[^>]*>/g, "");
      const fits = Math.floor(plain.length * room / width), even = Math.ceil(plain.length / Math.ceil(width / room));
      const most = Math.max(4, Math.min(fits, even + 6));  // characters on a line: lines of about equal length
      // Without spaces (Chinese): one character at a time, each with the tags around it (<b> never split).
      const pieces = title.text.includes(" ") ? title.text.split(" ") : title.text.match(/(?:<[^>]*>)*[^<](?:<\/[^>]*>)*/gu);
      const glue = title.text.includes(" ") ? " " : "", lines = [""];
      for (const piece of pieces) {
        const line = lines[lines.length - 1];
        if (line && (line + glue + piece).replace(/<[^>]*>/g, "").length > most) lines.push(piece); else lines[lines.length - 1] = line ? line + glue + piece : piece;
      }
      const size = (title.font && title.font.size) || 14, top = ((layout.margin && layout.margin.t) || 80) + Math.round(size * 1.25) * (lines.length - 1);
      const pad = ((title.pad && title.pad.t) || 0) + Math.round(size * 0.65) * (lines.length - 1);
      wrapped.set(gd, {text: title.text, width: layout.width, lines: lines.join("<br>"), top, pad});
      Plotly.relayout(gd, {"title.text": lines.join("<br>"), "margin.t": top, "title.pad.t": pad});
    };
    const drawn = (gd, figure, rest) => react.call(Plotly, gd, fitted(gd, figure), ...rest).then((result) => { fit(gd); return result; });
    Plotly.react = function (gd, figure, ...rest) {
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
    host.__attentionCharts.drawAll = () => { for (const gd of [...waiting.keys()]) draw(gd); };
    host.addEventListener("beforeprint", () => host.__attentionCharts.drawAll());  // a printed page has every chart
  };
  host.__attentionCharts = {drawAll: () => {}};
  if (host.Plotly) lazy(host.Plotly);
  else {  // Streamlit loads Plotly with the first chart
    let plotly;
    Object.defineProperty(host, "Plotly", {configurable: true, get: () => plotly, set: (value) => { plotly = value; lazy(value); }});
  }
}

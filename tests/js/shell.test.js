// The page script's pure parts (assets/components/shell/), run by Node's own test runner: make test.
import assert from "node:assert/strict";
import { test } from "node:test";

import { arrayOf, grids, shown, words } from "../../assets/components/shell/chart-tables.js";
import { ems, wrapTitle } from "../../assets/components/shell/chart-titles.js";
import { linkKept } from "../../assets/components/shell/keep.js";
import { translator } from "../../assets/components/shell/language.js";
import { hiddenSides } from "../../assets/components/shell/tables.js";

const TEXTS = { corner: "corner", along: "along" };

/** Plotly's encoding of a NumPy array, as Streamlit hands it to Plotly.react. */
function encoded(numbers, dtype = "f8") {
  const bytes = new Uint8Array(new Float64Array(numbers).buffer);
  return { dtype, bdata: btoa(String.fromCharCode(...bytes)) };
}

test("a chart's numbers: four significant digits, a true minus, never an exponent", () => {
  assert.equal(shown(-0.123456), "\u22120.1235");
  assert.equal(shown(2.5e-8), "0.000");
  assert.equal(shown(12), "12");
  assert.equal(shown(123456.7), "123500");
  assert.equal(shown("<b>a &amp; b</b>"), "a & b");
  assert.equal(words("one<br>two &lt;3 &#8722;1 &#x4e2d;"), "one two <3 \u22121 \u4e2d");
  assert.deepEqual(arrayOf(encoded([1.5, -2])), [1.5, -2]);
  assert.deepEqual(arrayOf([1, 2]), [1, 2]);
  assert.deepEqual(arrayOf(null), []);
});

test("a heatmap's table: its printed text with the names its tooltips carry, or its values", () => {
  const printed = {
    data: [
      {
        type: "heatmap",
        text: [["0.10", "0.90"]],
        customdata: [
          [
            ["the", "the"],
            ["the", "cat"],
          ],
        ],
      },
    ],
    layout: { xaxis: { title: { text: "key" } }, yaxis: { title: { text: "query" } } },
  };
  assert.deepEqual(grids(printed, TEXTS), [
    [
      ["query \\ key", "the", "cat"],
      ["the", "0.10", "0.90"],
    ],
  ]);
  const values = {
    data: [{ type: "heatmap", z: { ...encoded([1, -0.5, Number.NaN, 2]), shape: "2, 2" } }],
    layout: { xaxis: { tickvals: [0, 1], ticktext: ["a", "b"] } },
  };
  assert.deepEqual(grids(values, TEXTS), [
    [
      ["corner", "a", "b"],
      ["1", "1", "\u22120.5"],
      ["2", "", "2"],
    ],
  ]);
});

test("line charts: one table per set of lines that share their x; a chart may name its own numbers", () => {
  const figure = {
    data: [
      { type: "scatter", name: "scaled", x: [1, 2, 3], y: [0.5, 0.25, 0.125] },
      { type: "scatter", name: "raw", x: [1, 2, 3], y: [1, 2, 3] },
      { type: "scatter", name: "reference", x: [0, 10], y: [0, 0] },
      { type: "scatter", mode: "text", x: [1], y: [1] },
    ],
    layout: { xaxis: { title: { text: "d_k" } } },
  };
  assert.deepEqual(grids(figure, TEXTS), [
    [
      ["d_k", "scaled", "raw"],
      ["1", "0.5", "1"],
      ["2", "0.25", "2"],
      ["3", "0.125", "3"],
    ],
    [
      ["d_k", "reference"],
      ["0", "0"],
      ["10", "0"],
    ],
  ]);
  const named = {
    data: [],
    layout: {
      meta: {
        numbers: [
          ["", "x"],
          ["a", 0.5],
        ],
      },
    },
  };
  assert.deepEqual(grids(named, TEXTS), [
    [
      ["corner", "x"],
      ["a", "0.5"],
    ],
  ]);
  assert.deepEqual(grids({ data: [] }, TEXTS), []);
});

test("a title's length in ems: a Chinese character a whole em, a Latin letter about half", () => {
  assert.equal(ems("注意力"), 3);
  assert.equal(ems("<b>ab</b>"), 1.1);
  assert.equal(ems("第 2 层"), 3.05); // a space is narrower than a letter
});

test("a Chinese title with a few spaces wraps short of its room: its first line is never cut at the edge", () => {
  // the decoder's chart on a phone: 496 px on one line at 16 px a character, 293 px of room (it reached 304 px)
  const title = "<b><b>新的行：每送入一个词元，就利用缓存算出一行（第 2 层，第 1 个头）</b></b>";
  const lines = wrapTitle(title, 496, 293);
  assert.equal(lines.join(""), title);
  for (const line of lines) assert.ok(ems(line) * 16 <= 293, `${line}: ${ems(line) * 16} px`);
});

test("a wide title breaks into lines of about equal length at spaces, Chinese between characters", () => {
  const title = "The attention weights of every query over every key, as a heatmap";
  const lines = wrapTitle(title, 600, 250);
  assert.ok(lines.length >= 3, lines.join(" | "));
  assert.equal(lines.join(" "), title);
  const chinese = wrapTitle("<b>每个查询对每个键的注意力权重</b>，d_k 为 64", 400, 150);
  assert.ok(chinese.length >= 3);
  assert.equal(chinese.join(""), "<b>每个查询对每个键的注意力权重</b>，d_k 为 64");
  assert.ok(
    chinese.some((line) => line.includes("d_k")),
    "a run of Latin letters stays whole",
  );
});

test("Streamlit's English is said in Chinese: whole texts and patterns", () => {
  const english = { "streamlit.close": "Close", "streamlit.help": "Help for {label}", "page.other": "Other" };
  const chinese = { "streamlit.close": "关闭", "streamlit.help": "{label} 的帮助", "page.other": "其他" };
  const into = translator(english, chinese);
  assert.equal(into("Close"), "关闭");
  assert.equal(into("Help for d_k"), "d_k 的帮助");
  assert.equal(into("Help for "), null);
  assert.equal(into("Other"), null); // only Streamlit's and Plotly's own words
  assert.equal(into("关闭"), null);
});

test("the step component's values go back into the link Streamlit wrote, for the same token only", () => {
  const kept = { token: "n.1", url: { step: "4", head: "2" } };
  assert.equal(
    linkKept("http://x/?text=a&lang=en", ["step", "head", "focus"], kept, "n.1"),
    "http://x/?text=a&lang=en&step=4&head=2",
  );
  assert.equal(linkKept("http://x/?text=a&step=4&head=2", ["step", "head"], kept, "n.1"), null);
  assert.equal(linkKept("http://x/?text=a&focus=3", ["focus"], kept, "n.1"), "http://x/?text=a");
  assert.equal(linkKept("http://x/?text=a", ["step"], kept, "n.2"), null);
  assert.equal(linkKept("http://x/?text=a", ["step"], null, "n.1"), null);
});

test("a table that scrolls sideways says which sides hide more of it", () => {
  assert.equal(hiddenSides({ scrollLeft: 0, clientWidth: 300, scrollWidth: 300 }), "none");
  assert.equal(hiddenSides({ scrollLeft: 0, clientWidth: 300, scrollWidth: 500 }), "right");
  assert.equal(hiddenSides({ scrollLeft: 100, clientWidth: 300, scrollWidth: 500 }), "both");
  assert.equal(hiddenSides({ scrollLeft: 200, clientWidth: 300, scrollWidth: 500 }), "left");
});

test("a phone's wait on the server: asked again while nothing moved, one redraw once the class moved on", async () => {
  const { ring, pauseAfter } = await import("../../assets/components/shell/bell.js");
  const asked = [];
  const answers = [
    { status: 200, version: "aaaaaaaaaaaa" },
    { status: 200, version: "bbbbbbbbbbbb" },
  ];
  globalThis.window = /** @type {any} */ ({ location: { href: "http://school.example/live?join=ABC234" } });
  globalThis.fetch = /** @type {any} */ (
    async (address) => {
      asked.push(String(address));
      const answer = answers.shift() ?? { status: 200, version: "bbbbbbbbbbbb" };
      return { status: answer.status, json: async () => ({ version: answer.version }) };
    }
  );
  const rang = await new Promise((resolve) => {
    const trigger = (name, value) => resolve([name, value]);
    ring({ since: "aaaaaaaaaaaa" }, trigger);
    ring({ since: "aaaaaaaaaaaa" }, trigger); // the same page drawn again: still one wait
  });
  assert.deepEqual(rang, ["rang", "bbbbbbbbbbbb"]);
  assert.deepEqual(asked, [
    "http://school.example/-/live/wait?since=aaaaaaaaaaaa",
    "http://school.example/-/live/wait?since=aaaaaaaaaaaa",
  ]);
  assert.equal(pauseAfter(200, 0), 0);
  assert.deepEqual(
    [1, 2, 3, 6, 9].map((failures) => pauseAfter(403, failures)),
    [1000, 2000, 4000, 30000, 30000],
  );
  assert.equal(pauseAfter(0, 1), 1000);
});

// Numbers exactly as the server prints them (attention_plot.figures: cell_text, units, number_text, dot_arithmetic),
// and the colours of its scales. Pure functions: the step component (steps.js, after this file) draws with them, and
// tests/test_shell_component_numbers.py runs them in Node.js against the Python they copy.

export const MINUS = "\u2212";
// NumPy's rint: round half to even, on the float64 product x * 10^d (np.round(x, d) multiplies, rints, divides).
/** @param {number} y */
export const rint = (y) => {
  const f = Math.floor(y),
    r = y - f;
  return r > 0.5 ? f + 1 : r < 0.5 ? f : f % 2 === 0 ? f : f + 1;
};
/** @param {number} x @param {number} d */
export const units = (x, d) => rint(x * 10 ** d);
// An integer count of 10^-d units as text with a true minus sign, exactly (no float formatting).
/** @param {number} count @param {number} d @returns {string} */
export const numberText = (count, d) => {
  const negative = count < 0,
    whole = Math.floor(Math.abs(count) / 10 ** d),
    part = Math.abs(count) - whole * 10 ** d;
  const digits = d ? `${whole}.${String(part).padStart(d, "0")}` : String(whole);
  return (negative && (whole || part) ? MINUS : "") + digits;
};
/** @param {number} x @param {number} d @returns {string} */
export const cellText = (x, d) =>
  Number.isNaN(x) ? "" : x === -Infinity ? `${MINUS}\u221e` : x === Infinity ? "\u221e" : numberText(units(x, d), d);
// Integer units rounded by 10^by, half away from zero (as by hand): BigInt, since a product of two operands with six
// decimals each can pass 2^53.
/** @param {bigint} count @param {number} by @returns {bigint} */
export const roundUnits = (count, by) => {
  const step = 10n ** BigInt(by),
    sign = count < 0n ? -1n : 1n,
    a = count < 0n ? -count : count;
  return sign * ((a + step / 2n) / step);
};
/** @param {bigint} count @param {number} d @returns {string} */
export const bigText = (count, d) => {
  const negative = count < 0n,
    a = negative ? -count : count,
    step = 10n ** BigInt(d);
  const whole = a / step,
    part = a % step;
  return (negative && a ? MINUS : "") + (d ? `${whole}.${String(part).padStart(d, "0")}` : String(whole));
};

// --- Colours as the scales of attention_plot.figures (Plotly interpolates in RGB between stops) ---

/** @param {string} c "#rrggbb" or "rgb(r, g, b)" (Plotly's own form of a scale) @returns {number[]} */
export const rgb = (c) =>
  c.startsWith("#")
    ? [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16))
    : (c.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
/** @param {number} v */
const channel = (v) => {
  const c = v / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
/** @param {number[]} colour */
export const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
/** @param {[number, string][]} scale @param {number} at a place from 0 to 1 @returns {number[]} */
export const colourAt = (scale, at) => {
  const t = Math.min(1, Math.max(0, at));
  let i = 1;
  while (i < scale.length - 1 && scale[i][0] < t) i++;
  const [t0, c0] = scale[i - 1],
    [t1, c1] = scale[i],
    f = t1 > t0 ? (t - t0) / (t1 - t0) : 0,
    a = rgb(c0),
    b = rgb(c1);
  return a.map((v, k) => Math.round(v + (b[k] - v) * f));
};
// Black or white, whichever contrasts more (at least 4.58:1 on any colour).
/** @param {number[]} colour @returns {string} */
export const inkOn = (colour) => {
  const l = luminance(colour);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000" : "#fff";
};
/** @param {number[]} colour */
export const css = ([r, g, b]) => `rgb(${r},${g},${b})`;
// A scale's colours at 1,024 places, each with its ink, made once: a matrix of 1,600 cells looks them up (a cell's colour is
// the exact interpolation at the nearest place, 1/1023 of the range away at most; its ink is checked on that colour).
/** @type {Map<string, [string, string][]>} */
const tables = new Map();
/** @param {[number, string][]} scale @param {number} t @returns {[string, string]} background, ink */
export const paint = (scale, t) => {
  const key = JSON.stringify(scale);
  let table = tables.get(key);
  if (!table) {
    table = Array.from({ length: 1024 }, (_, k) => {
      const colour = colourAt(scale, k / 1023);
      return /** @type {[string, string]} */ ([css(colour), inkOn(colour)]);
    });
    tables.set(key, table);
  }
  return table[Math.round(Math.min(1, Math.max(0, t)) * 1023)];
};

// One raw score's tooltip lines (attention_plot.figures.dot_arithmetic): q_i·k_j term by term, each operand with the
// ``places`` decimals the server found, each product of the shown operands rounded by hand (half away from zero), and
// their sum against the score as shown (2 decimals). Beyond 8 dimensions, the first four terms at 2 decimals. A line is
// a list of parts: text, or {sub: text} for a subscript. qi, kj: the query's and the key's rows (i, j counted from 0).
/**
 * @typedef {string | {sub: string}} Part
 * @param {ArrayLike<number>} qi @param {ArrayLike<number>} kj @param {number} i @param {number} j @param {number} places
 * @param {number} score
 * @returns {Part[][]}
 */
export function dotTerms(qi, kj, i, j, places, score) {
  const width = qi.length,
    name = () => ["q", { sub: String(i + 1) }, "\u00b7k", { sub: String(j + 1) }];
  if (width > 8) {
    /** @type {string[]} */
    const terms = [];
    for (let s = 0; s < 4; s++) terms.push(`${cellText(qi[s], 2)}\u00d7${cellText(kj[s], 2)}`);
    return [[...name(), ` = ${terms.join(" + ")} + \u2026 (${width} terms)`]];
  }
  /** @type {Part[][]} */
  const lines = [[...name(), " = \u03a3 q", { sub: `${i + 1}t` }, " k", { sub: `${j + 1}t` }, ":"]];
  let total = 0n;
  for (let s = 0; s < width; s++) {
    const a = BigInt(units(qi[s], places)),
      b = BigInt(units(kj[s], places)),
      product = roundUnits(a * b, places);
    total += product;
    const left = s === 0 || a >= 0n ? bigText(a, places) : `(${bigText(a, places)})`,
      right = b < 0n ? `(${bigText(b, places)})` : bigText(b, places);
    lines.push([`${s ? "+ " : ""}${left} \u00d7 ${right} = ${bigText(product, places)}`]);
  }
  lines.push([`\u03a3 = ${bigText(total, places)} \u2248 ${numberText(units(score, 2), 2)}`]);
  return lines;
}

// The focused query's two tables, the article's figure for one query (views/walkthrough.focus_places gives the decimals):
// per key its position, name, score (``places`` decimals), score ÷ divisor and weight (``decimals``); per key the weighted
// value a_j v_j over the first ``dims`` dimensions (``terms`` decimals: a column adds up by hand to the output shown), and
// the output. raw, masked, weights: the query's rows (n_k); v: the values, flat (n_k × dv); out: the query's output (dv).
/**
 * @param {ArrayLike<number>} raw @param {ArrayLike<number>} masked @param {ArrayLike<number>} weights @param {ArrayLike<number>} v
 * @param {number} dv @param {ArrayLike<number>} out @param {number} divisor @param {number} places @param {number} terms
 * @param {string[]} keys @param {number} dims @param {number} decimals
 */
export function focusTables(raw, masked, weights, v, dv, out, divisor, places, terms, keys, dims, decimals) {
  const shown = Math.min(dv, dims);
  const weightText = Array.from(weights, (w) => cellText(w, decimals));
  return {
    divisor: numberText(units(divisor, places), places).replace(/0+$/, "").replace(/\.$/, ""),
    scores: keys.map((key, j) => [
      String(j + 1),
      key,
      cellText(raw[j], places),
      cellText(masked[j], decimals),
      weightText[j],
    ]),
    weighted: keys.map((key, j) => [
      `${weightText[j]} \u00d7 v${j + 1} (${key})`,
      ...Array.from({ length: shown }, (_, s) => cellText(weights[j] * v[j * dv + s], terms)),
    ]),
    sum: Array.from({ length: shown }, (_, s) => cellText(out[s], decimals)),
    shown,
  };
}

// The payload the server sends (views/widgets/steps.py writes it; this file mirrors its format): "ATT1", the header's
// length (uint32, little endian), the header (UTF-8 JSON), padding to 8 bytes, then every matrix's values as float64
// (little endian), row by row. A matrix in the header names where its values lie in that block (offset, shape).

/**
 * Where a run of numbers lies in the float64 block.
 * @typedef {object} Place
 * @property {number} offset the first number's index in the block
 * @property {number[]} shape e.g. [rows, columns]
 */

/**
 * A matrix the browser draws as a table (views/widgets/steps.Pack.matrix).
 * @typedef {Place & {
 *   title: string, kind: string, rows: string[], columns: string[],
 *   rows_title: string, columns_title: string, row_name: string, column_name: string, alt: string,
 *   decimals: number, groups: number, range: [number, number], readable: boolean, hue?: string,
 *   arithmetic?: {query: string, key: string, places: Place},
 * }} Matrix
 */

/**
 * A piece of a step: a note, numbered tokens, a matrix, a row of pieces side by side, or a question with options.
 * @typedef {{type: "note", tone: string, html: string}} NoteBlock
 * @typedef {{type: "chips", tokens: string[], caption?: string}} ChipsBlock
 * @typedef {{type: "matrix", matrix: string, per_head: boolean, hide: boolean, sums?: boolean, heads?: number}} MatrixBlock
 * @typedef {{type: "row", children: Block[]}} RowBlock
 * @typedef {{type: "column", label: string, formula?: string, blocks: Block[]}} ColumnBlock one side of a compare step
 * @typedef {{label: string, decimals: number, a?: Place, b?: Place, both?: Place}} ContrastRow a (heads, words) place each
 * @typedef {{type: "contrast", caption: string, columns: string[], rows: ContrastRow[], tokens: string[], b_rows?: number[]}} ContrastBlock
 * @typedef {{
 *   type: "options", stop: string, name?: string, options: string[], guess?: number | null, revealed?: boolean,
 *   show?: string, links: {href: string, label: string}[], right?: boolean, answer?: string,
 * }} OptionsBlock
 * @typedef {NoteBlock | ChipsBlock | MatrixBlock | RowBlock | ColumnBlock | ContrastBlock | OptionsBlock} Block
 */

/**
 * @typedef {object} Step
 * @property {string} id
 * @property {string} title
 * @property {string} badge the article's step it is
 * @property {string} body server-made HTML
 * @property {string} [formula] MathML
 * @property {Block[]} blocks
 */

/**
 * What the browser keeps of a view: the step, head and focused word (counted from 1), and its switches.
 * @typedef {object} View
 * @property {number} step
 * @property {number} head
 * @property {number} focus
 * @property {boolean} values numbers in the cells
 * @property {boolean} all every step at once
 * @property {boolean} predict Predict first
 * @property {boolean} hands the hands-on editor open
 */

/**
 * @typedef {object} Walks the walks (and a real model's layers) the component offers
 * @property {string} current
 * @property {string[]} options
 * @property {string[]} labels
 * @property {number[]} layers
 * @property {number} layer
 */

/**
 * @typedef {object} Sentence the sentence box
 * @property {string} text
 * @property {string[]} examples
 * @property {string} label
 * @property {string} help
 * @property {string} show
 * @property {string} examples_label
 * @property {string} placeholder
 * @property {number} max
 */

/**
 * @typedef {object} FocusHead
 * @property {number} divisor
 * @property {Place} places per query: the decimals of its scores and of its weighted values (n_q, 2)
 */

/**
 * @typedef {Record<string, string>} Texts the component's words in the reader's language (steps.component_texts)
 */

/**
 * The header: what every session showing these numbers shares, and this session's own token and view.
 * @typedef {object} Header
 * @property {string} page
 * @property {string} id names the numbers (a Predict first guess is kept per id)
 * @property {string} variant
 * @property {string} layout "screen", "projector", ...
 * @property {number} font chart text size, px
 * @property {string} lang
 * @property {Texts} texts
 * @property {string} csv a download's file name
 * @property {Step[]} steps
 * @property {number} heads
 * @property {string[]} tokens
 * @property {string[]} keys
 * @property {Record<string, Matrix>} matrices
 * @property {Record<string, [number, string][]>} scales each kind's colour scale: [place 0-1, "#rrggbb"]
 * @property {Record<string, string>} url the link's name of each view value kept in the link
 * @property {Record<string, string[]>} [url_values] a value the link names itself (a training step, not its place)
 * @property {string} token names the view the server last chose
 * @property {Partial<View>} view the view the server knows
 * @property {{step?: number}} [enter] another walk opens at this step
 * @property {{heads: FocusHead[], dims: number, decimals: number} | null} [focus]
 * @property {Record<string, Place>} [sums] per head: each query's sum of weights
 * @property {Walks | null} [walks]
 * @property {Sentence | null} [sentence]
 * @property {string | null} [intro]
 * @property {string} [note]
 * @property {string} [message] nothing to walk through yet: why (server-made HTML)
 * @property {boolean} [ask] a live class can be asked
 * @property {boolean} [teaching] a live class is open
 * @property {boolean} [saved] a walk saved as one HTML file (attention_plot/standalone.py): no server to ask, so nothing
 *   that asks one is offered (the hands-on editor, leaving presenter mode)
 * @property {{a: string, b: string, look?: string}} [compare] compare mode: the two sides' names, a preset's hint (HTML)
 */

/**
 * The header and the float64 block of a payload.
 * @param {Uint8Array} bytes
 * @returns {{header: Header, values: Float64Array}}
 */
export function decode(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(0, 4)) !== "ATT1") throw new Error("not a step payload");
  const length = view.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length)));
  const values = new Float64Array(bytes.slice(8 + length).buffer); // a copy: aligned to 8 bytes
  return { header, values };
}

/**
 * The numbers of ``place`` in the block, in order (a view, not a copy).
 * @param {Float64Array} values
 * @param {Place} place
 * @returns {Float64Array}
 */
export function valuesAt(values, place) {
  return values.subarray(place.offset, place.offset + place.shape.reduce((a, b) => a * b, 1));
}

/**
 * One row of a matrix (rows × columns, row by row), counted from 0.
 * @param {Float64Array} values
 * @param {Place} place
 * @param {number} row
 * @returns {Float64Array}
 */
export function rowAt(values, place, row) {
  const columns = place.shape[1];
  return values.subarray(place.offset + row * columns, place.offset + (row + 1) * columns);
}

/**
 * The matrix a block draws for ``head`` (counted from 1): its own id, or per head ``<id>.<head>``, the side's last
 * head where it has fewer (``heads``: compare mode's walk of one head beside one of four).
 * @param {{matrix: string, per_head: boolean, heads?: number}} block
 * @param {number} head
 * @returns {string}
 */
export function matrixIdOf(block, head) {
  return block.per_head ? `${block.matrix}.${Math.min(head, block.heads || head)}` : block.matrix;
}

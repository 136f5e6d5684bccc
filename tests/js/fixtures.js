// What the Node tests share: a small matrix entry of a step payload (assets/components/steps/payload.js's Matrix).

/**
 * Raw scores of "the cat" against "the cat sat", as the server describes them, its numbers at ``offset``.
 * @param {number} offset
 */
export function rawScores(offset) {
  return {
    offset,
    shape: [2, 3],
    title: "Raw scores",
    kind: "signed",
    rows: ["the", "cat"],
    columns: ["the", "cat", "sat"],
    rows_title: "query",
    columns_title: "key",
    row_name: "Query",
    column_name: "Key",
    alt: "Heatmap",
    decimals: 2,
    groups: 1,
    range: [-2, 2],
    readable: true,
  };
}

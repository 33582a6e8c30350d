/**
 * How wide Vega takes a text to be when it lays a figure out. Without a canvas (benchlens renders
 * headlessly) Vega guesses 0.8 em a character, about 1.4 times what a sans-serif font draws: a
 * legend took half again the width its labels needed, a label of 26 characters was cut to
 * `enable_prefix_caching=tr…`, and axis labels that had room were hidden as overlapping. The
 * advance widths below are DejaVu Sans' (the font a PNG is drawn in, and wider than the
 * Helvetica or Arial a browser draws the SVG in, so nothing measured here overflows there).
 */

/**
 * Advance widths of ASCII 32 (space) to 126 (`~`) in 1/2048 em, read from the `hmtx` tables of
 * DejaVu Sans (Book) and DejaVu Sans Bold (Debian's fonts-dejavu-core, 2.37).
 */
const REGULAR = [
  651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690,
  1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716, 1087,
  2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612,
  1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024,
  1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995, 1298, 1253,
  1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716,
];
const BOLD = [
  713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716, 778, 850, 778, 748,
  1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 819, 819, 1716, 1716, 1716, 1188,
  2048, 1585, 1561, 1503, 1700, 1399, 1399, 1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741,
  1501, 1741, 1577, 1475, 1397, 1663, 1585, 2259, 1579, 1483, 1485, 936, 748, 936, 1716, 1024,
  1024, 1382, 1466, 1214, 1466, 1389, 891, 1466, 1458, 702, 702, 1362, 702, 2134, 1458, 1407,
  1466, 1466, 1010, 1219, 979, 1458, 1335, 1892, 1321, 1335, 1192, 1458, 748, 1458, 1716,
];
const UNITS_PER_EM = 2048;
/** Any other character: a letter's width, or a full em from the CJK blocks on. */
const OTHER_EM = 0.62;
const WIDE_EM = 1;

/** The width in px of `text` at `fontSize` px. */
export function textWidth(text: string, fontSize: number, bold = false): number {
  const advances = bold ? BOLD : REGULAR;
  let em = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    const advance = code >= 32 && code <= 126 ? advances[code - 32] : undefined;
    em += advance !== undefined ? advance / UNITS_PER_EM : code >= 0x2e80 ? WIDE_EM : OTHER_EM;
  }
  return em * fontSize;
}

/** A text mark's fields the width depends on. */
interface TextItem {
  readonly fontSize?: number | string | null;
  readonly fontWeight?: number | string | null;
  readonly limit?: number | string | null;
}

function isBold(weight: TextItem['fontWeight']): boolean {
  if (weight === null || weight === undefined) return false;
  return weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
}

/**
 * Vega's width of a text item: what it draws, so a text Vega will cut to `limit` (with an
 * ellipsis) is no wider than that; Vega calls this with the parts of the text while it cuts.
 */
export function itemTextWidth(item: TextItem, text: unknown): number {
  const size = item.fontSize === null || item.fontSize === undefined ? 11 : Number(item.fontSize) || 0;
  const line = text === null || text === undefined ? '' : String(text).trim();
  const width = size <= 0 ? 0 : textWidth(line, size, isBold(item.fontWeight));
  const limit = Number(item.limit ?? 0);
  return limit > 0 ? Math.min(width, limit) : width;
}

/** Vega's exported text metrics (a user-defined `width` is used wherever Vega measures text). */
interface TextMetrics {
  width: (item: TextItem, text: unknown) => number;
}

/** Makes Vega lay text out by itemTextWidth from now on (in this process); vega's typings omit `textMetrics`. */
export function useTextWidths(vega: object): void {
  const metrics = (vega as { readonly textMetrics?: TextMetrics }).textMetrics;
  if (metrics) metrics.width = itemTextWidth;
}

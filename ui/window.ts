/**
 * Which rows of a long list to draw (docs/inspector.md: The inspector — a table of 1,000 events stays
 * smooth): only those in view, plus a few either side, each at a fixed height.
 */
export interface RowWindow {
  /** First row drawn. */
  start: number;
  /** One past the last row drawn. */
  end: number;
}

export function rowWindow(scrollTop: number, viewport: number, rowHeight: number, count: number, overscan = 8): RowWindow {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visible = Math.ceil(Math.max(viewport, rowHeight) / rowHeight) + 1;
  return { start: Math.max(0, first - overscan), end: Math.min(count, first + visible + overscan) };
}

/** The scroll position that brings row `index` into view, or `scrollTop` when it already is. */
export function scrollFor(index: number, scrollTop: number, viewport: number, rowHeight: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewport) return top + rowHeight - viewport;
  return scrollTop;
}

/**
 * A long list drawn a window at a time (window.ts), so that 1,000 events or requests scroll
 * smoothly; rows of a fixed height in a grid of columns. From the keyboard: ↑/↓ (or k/j), Page
 * Up/Down, Home/End move the selection, Escape clears it.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { rowWindow, scrollFor } from './window.js';

export interface Column<T> {
  label: string;
  /** A CSS grid track: `9rem`, `1fr`. */
  width: string;
  cell: (item: T) => ComponentChildren;
}

export interface VirtualListProps<T> {
  items: T[];
  columns: Column<T>[];
  rowKey: (item: T) => string;
  selected: string | undefined;
  onSelect: (item: T | undefined) => void;
  label: string;
  rowClass?: (item: T) => string;
  rowHeight?: number;
}

export function VirtualList<T>({ items, columns, rowKey, selected, onSelect, label, rowClass, rowHeight = 34 }: VirtualListProps<T>) {
  const box = useRef<HTMLDivElement>(null);
  const frame = useRef(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);

  useEffect(() => {
    const element = box.current!;
    const observer = new ResizeObserver(() => setViewport(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      setScrollTop(box.current?.scrollTop ?? 0);
    });
  };

  const at = selected === undefined ? -1 : items.findIndex((item) => rowKey(item) === selected);
  const moveTo = (index: number) => {
    if (items.length === 0) return;
    const i = Math.min(items.length - 1, Math.max(0, index));
    onSelect(items[i]);
    const element = box.current!;
    element.scrollTop = scrollFor(i, element.scrollTop, element.clientHeight, rowHeight);
  };
  const page = Math.max(1, Math.floor(viewport / rowHeight) - 1);
  const onKeyDown = (e: KeyboardEvent) => {
    const moves: Record<string, () => void> = {
      ArrowDown: () => moveTo(at + 1),
      j: () => moveTo(at + 1),
      ArrowUp: () => moveTo(at < 0 ? 0 : at - 1),
      k: () => moveTo(at < 0 ? 0 : at - 1),
      PageDown: () => moveTo(at + page),
      PageUp: () => moveTo(at - page),
      Home: () => moveTo(0),
      End: () => moveTo(items.length - 1),
      Escape: () => onSelect(undefined),
    };
    const move = moves[e.key];
    if (!move || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    move();
  };

  const template = columns.map((c) => c.width).join(' ');
  const { start, end } = rowWindow(scrollTop, viewport, rowHeight, items.length);
  return (
    <div class="vlist">
      <div class="vhead" style={{ gridTemplateColumns: template }}>
        {columns.map((c) => (
          <span key={c.label}>{c.label}</span>
        ))}
      </div>
      <div
        class="vbody"
        ref={box}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
        tabIndex={0}
        role="listbox"
        aria-label={label}
        aria-activedescendant={at >= 0 ? `row-${selected}` : undefined}
      >
        <div class="vspace" style={{ height: `${items.length * rowHeight}px` }}>
          {items.slice(start, end).map((item, k) => {
            const key = rowKey(item);
            const i = start + k;
            return (
              <div
                key={key}
                id={`row-${key}`}
                role="option"
                aria-selected={key === selected}
                class={`vrow${key === selected ? ' selected' : ''} ${rowClass?.(item) ?? ''}`}
                style={{ transform: `translateY(${i * rowHeight}px)`, height: `${rowHeight}px`, gridTemplateColumns: template }}
                onClick={() => onSelect(item)}
              >
                {columns.map((c) => (
                  <span class="cell" key={c.label}>
                    {c.cell(item)}
                  </span>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

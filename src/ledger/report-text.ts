/**
 * The text report's figures and tables, shared by its sections (src/ledger/report-*.ts): one precision per unit, and
 * tables that fit a width.
 *
 * Precision (the default; `--wide` prints the exact decimals of the raw integers instead): USDC at 2 decimals (cents),
 * prices (USDC per share) at the tick's precision (3 decimals: TICKS_PER_UNIT), shares at 2 decimals, a markout's mean
 * (USDC per fill) at 4. Rounding is
 * once, half away from zero, on the raw 1e6 integer (never a float). Ratios and percentages keep their own format.
 *
 * Tables: a header, a units row, a rule, the rows. When a table is wider than the width, in this order: (1) rows whose
 * key columns (the left-aligned ones: market, day) are long put their keys on a line of their own, the figures
 * indented below it; (2) if the figures still do not fit, the value columns are split into blocks, each printed as a
 * table of its own with the key columns repeated. Prose longer than the width is wrapped at spaces (`wrapText`). Invariants: no line is longer than the width unless a single column
 * is (never cut: a figure is printed whole); with an infinite width the table is the plain one.
 */
import { RAW_PER_UNIT, TICKS_PER_UNIT } from '../core/venue-rules/index.js';

/** The width `report` fits by default. */
export const REPORT_WIDTH = 120;

/** How a section prints its figures: `exact` (--wide) or rounded to one precision per unit. */
export interface FigureStyle {
  readonly wide: boolean;
  /** The table width (Infinity with --wide). */
  readonly width: number;
  /** Raw 1e6 USDC. */
  usdc(raw: number): string;
  /** Raw 1e6 USDC per share. */
  price(raw: number): string;
  /** Raw 1e6 shares. */
  shares(raw: number): string;
  /** Raw 1e6 USDC per fill (a markout's mean): finer than cents, a fill's markout is often below one. */
  perFill(raw: number): string;
}

const PRICE_DECIMALS = Math.round(Math.log10(TICKS_PER_UNIT));
const USDC_DECIMALS = 2;
const SHARE_DECIMALS = 2;
const PER_FILL_DECIMALS = 4;

/** The exact decimal of a raw 1e6 integer, trailing zeros dropped ("0.36", "16.966893"). */
export function exactDecimal(raw: number): string {
  const abs = Math.abs(raw);
  const fraction = String(abs % RAW_PER_UNIT).padStart(6, '0').replace(/0+$/, '');
  return `${raw < 0 ? '-' : ''}${Math.floor(abs / RAW_PER_UNIT)}${fraction === '' ? '' : `.${fraction}`}`;
}

/** A raw 1e6 integer at `places` decimals (0–6), rounded half away from zero on the integer. */
export function fixedDecimal(raw: number, places: number): string {
  const step = 10 ** (6 - places);
  const abs = Math.abs(raw);
  const units = Math.floor(abs / step) + (abs % step >= step / 2 ? 1 : 0);
  const scale = 10 ** places;
  const whole = Math.floor(units / scale);
  const fraction = places === 0 ? '' : `.${String(units % scale).padStart(places, '0')}`;
  return `${raw < 0 && units > 0 ? '-' : ''}${whole}${fraction}`;
}

/** A decimal text with at most 6 places ("0.4666667" is not one) as its raw 1e6 integer; null when it is not one. */
export function decimalToRaw(text: string): number | null {
  const match = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(text);
  if (match === null) return null;
  const raw = Number(match[2]) * RAW_PER_UNIT + Number((match[3] ?? '').padEnd(6, '0'));
  return Number.isSafeInteger(raw) ? (match[1] === '-' ? -raw : raw) : null;
}

export function figureStyle(options: { readonly wide?: boolean; readonly width?: number } = {}): FigureStyle {
  const wide = options.wide === true;
  if (wide) return { wide, width: Number.POSITIVE_INFINITY, usdc: exactDecimal, price: exactDecimal, shares: exactDecimal, perFill: exactDecimal };
  return {
    wide,
    width: options.width ?? REPORT_WIDTH,
    usdc: (raw) => fixedDecimal(raw, USDC_DECIMALS),
    price: (raw) => fixedDecimal(raw, PRICE_DECIMALS),
    shares: (raw) => fixedDecimal(raw, SHARE_DECIMALS),
    perFill: (raw) => fixedDecimal(raw, PER_FILL_DECIMALS),
  };
}

/** The exact figures with no width: what the sections printed before this module (and `--wide` prints). */
export const WIDE: FigureStyle = figureStyle({ wide: true });

export interface TableSpec {
  readonly header: readonly string[];
  /** The unit of each column, printed under the header ('' for none). */
  readonly units: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** The first `keys` columns are the row's keys: left-aligned, repeated in every block. */
  readonly keys: number;
  /** Rows printed after a rule under the others (a TOTAL). */
  readonly footer?: readonly (readonly string[])[];
  /** Further left-aligned columns (by index) among the values (a "mark" that may read "no mark"). */
  readonly leftAligned?: readonly number[];
}

const GAP = '  ';
/** How far the figures of a row whose keys are on a line of their own are indented. */
const STACK_INDENT = 2;

function widthsOf(spec: TableSpec, columns: readonly number[]): number[] {
  const all = [spec.header, spec.units, ...spec.rows, ...(spec.footer ?? [])];
  return columns.map((c) => Math.max(...all.map((row) => row[c]?.length ?? 0)));
}

const lineWidth = (widths: readonly number[]): number => widths.reduce((a, b) => a + b, 0) + GAP.length * Math.max(0, widths.length - 1);

/** One block: the key columns and `values` (column indexes), keys inline or on lines of their own (`stacked`). */
function renderBlock(spec: TableSpec, values: readonly number[], stacked: boolean): string[] {
  const keyColumns = Array.from({ length: spec.keys }, (_, i) => i);
  const left = new Set([...keyColumns, ...(spec.leftAligned ?? [])]);
  const columns = stacked ? values : [...keyColumns, ...values];
  const widths = widthsOf(spec, columns);
  const cell = (row: readonly string[], column: number, i: number): string => {
    const text = row[column] ?? '';
    const width = widths[i] ?? text.length;
    return left.has(column) ? text.padEnd(width) : text.padStart(width);
  };
  const render = (row: readonly string[], indent: string): string => `${indent}${columns.map((column, i) => cell(row, column, i)).join(GAP)}`.trimEnd();
  const indent = stacked ? ' '.repeat(STACK_INDENT) : '';
  const rule = `${indent}${widths.map((w) => '-'.repeat(w)).join(GAP)}`;
  const keyLine = (row: readonly string[]): string => keyColumns.map((c) => row[c] ?? '').filter((k) => k !== '').join(GAP);
  const body = (row: readonly string[]): string[] => (stacked ? [keyLine(row), render(row, indent)] : [render(row, indent)]);
  const head = stacked ? [keyColumns.map((c) => spec.header[c] ?? '').join(' / '), render(spec.header, indent), render(spec.units, indent)] : [render(spec.header, ''), render(spec.units, '')];
  return [...head, rule, ...spec.rows.flatMap(body), ...(spec.footer === undefined || spec.footer.length === 0 ? [] : [rule, ...spec.footer.flatMap(body)])];
}

/** Value columns split into consecutive blocks each fitting `width` beside `fixed` (the keys and their gap, or the indent). */
function blocksOf(spec: TableSpec, values: readonly number[], fixed: number, width: number): number[][] {
  const widths = widthsOf(spec, values);
  const blocks: number[][] = [];
  let current: number[] = [];
  let used = fixed;
  values.forEach((column, i) => {
    const w = widths[i] ?? 0;
    const extra = current.length === 0 ? w : GAP.length + w;
    if (current.length > 0 && used + extra > width) {
      blocks.push(current);
      current = [];
      used = fixed;
    }
    used += current.length === 0 ? w : GAP.length + w;
    current.push(column);
  });
  if (current.length > 0) blocks.push(current);
  return blocks;
}

/** The table as lines no longer than `width` (see the header for how). */
export function layoutTable(spec: TableSpec, width: number): string[] {
  const columns = spec.header.map((_, i) => i);
  const values = columns.slice(spec.keys);
  if (lineWidth(widthsOf(spec, columns)) <= width) return renderBlock(spec, values, false);
  const keysWidth = lineWidth(widthsOf(spec, columns.slice(0, spec.keys)));
  const valuesWidth = lineWidth(widthsOf(spec, values));
  // Long keys: on lines of their own, the figures under them (when the figures fit).
  if (STACK_INDENT + valuesWidth <= width) return renderBlock(spec, values, true);
  // Too many figures: blocks of columns, keys inline when they leave room for a column, else stacked.
  const inline = keysWidth + GAP.length + Math.max(...widthsOf(spec, values)) <= width && keysWidth <= width / 2;
  const blocks = blocksOf(spec, values, inline ? keysWidth + GAP.length : STACK_INDENT, width);
  return blocks.flatMap((block, i) => [...(i === 0 ? [] : ['']), ...renderBlock(spec, block, !inline)]);
}

/** Every line longer than `width` broken at its last spaces before it (a word longer than the width stays whole). Pure. */
export function wrapText(text: string, width: number): string {
  if (!Number.isFinite(width)) return text;
  return text
    .split('\n')
    .flatMap((line) => {
      const out: string[] = [];
      let rest = line;
      while (rest.length > width) {
        const before = rest.lastIndexOf(' ', width);
        const cut = before > 0 ? before : rest.indexOf(' ', width);
        if (cut <= 0) break;
        out.push(rest.slice(0, cut).trimEnd());
        rest = rest.slice(cut + 1);
      }
      return [...out, rest];
    })
    .join('\n');
}

/**
 * The unit of the amounts of `GET /portfolio/history` (`collateralAmount`, `outcomeTokenAmount(s)`), which no recorded
 * answer settles: the venue's other portfolio answer documents raw 6-decimal integer strings
 * (../shared/venue-samples/docs-examples/portfolio-positions.json: `"todaysRewards": "50250000"` is 50.25 USDC), the
 * official client types them as bare strings (`collateralAmount?: string`, "e.g. USDC spent/received") beside a
 * market snapshot that carries its collateral's `decimals`, and `outcomeTokenPrice` as `number | string`. So it is the
 * setting `venue.units.historyAmounts`: `raw` (1e6 integers), `decimal` (human units, "12.5" is 12.5 USDC or shares,
 * at most 6 decimals) or `auto` (the default), which reads each page's shape before any entry of it
 * (`historyUnitFromShape`, pure):
 * - an amount written with a fractional part (a string with a decimal point, a non-integer number) cannot be raw:
 *   decimal;
 * - a whole amount of 1e6 or more cannot be a decimal (a million USDC or shares in one entry of a market maker's
 *   account): raw;
 * - otherwise (no amount, or only small whole numbers) the page proves nothing and is read as raw, the documented
 *   shape of the sibling answer, until a page proves a unit.
 * The first page that proves a unit settles it for the run, said once (INFO) with what proved it; a later page that
 * contradicts the settled unit is read in the settled unit (its unreadable entries skipped and counted by the parser)
 * and said once (WARN). Invariants: a configured unit never changes; nothing here throws into a caller; amounts come
 * out as exact raw 1e6 integers or not at all.
 */
import { parseScaled, UnitError } from '../core/venue-rules/index.js';

export type HistoryAmountsSetting = 'auto' | 'raw' | 'decimal';
export type HistoryAmountUnit = 'raw' | 'decimal';

/** Whole amounts from this size up cannot be human units in one history entry (a million USDC or shares). */
export const DECIMAL_IMPLAUSIBLE_FROM = 1_000_000;

export interface HistoryUnitEvidence {
  readonly unit: HistoryAmountUnit;
  /** The amount that proved it, as sent, and why. */
  readonly value: string | number;
  readonly why: string;
}

const fractional = (value: string | number): boolean => (typeof value === 'number' ? Number.isFinite(value) && !Number.isInteger(value) : /^\s*\d*\.\d+\s*$/.test(value));
const wholeAtLeast = (value: string | number, limit: number): boolean => {
  if (typeof value === 'number') return Number.isInteger(value) && value >= limit;
  return /^\s*\d+\s*$/.test(value) && BigInt(value.trim()) >= BigInt(limit);
};

/** The unit a page's amounts prove (a fractional amount first), or null when they prove none. Pure. */
export function historyUnitFromShape(amounts: readonly (string | number)[]): HistoryUnitEvidence | null {
  const decimal = amounts.find(fractional);
  if (decimal !== undefined) return { unit: 'decimal', value: decimal, why: 'an amount with a fractional part cannot be a raw 1e6 integer' };
  const raw = amounts.find((a) => wholeAtLeast(a, DECIMAL_IMPLAUSIBLE_FROM));
  if (raw !== undefined) return { unit: 'raw', value: raw, why: `a whole amount of ${DECIMAL_IMPLAUSIBLE_FROM} or more cannot be USDC or shares in one entry` };
  return null;
}

/** The amounts of one history element, as sent (strings and numbers only; anything else is the parser's to refuse). */
export function amountsOf(element: unknown): (string | number)[] {
  if (typeof element !== 'object' || element === null) return [];
  const record = element as Readonly<Record<string, unknown>>;
  const list = Array.isArray(record['outcomeTokenAmounts']) ? (record['outcomeTokenAmounts'] as readonly unknown[]) : [];
  return [record['collateralAmount'], record['outcomeTokenAmount'], ...list].filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
}

/** An amount in `unit` → raw 1e6 integer; a message naming what is wrong when it cannot be read. Pure. */
export function historyAmountToRaw(value: string | number, unit: HistoryAmountUnit): { readonly raw: number } | { readonly error: string } {
  if (unit === 'raw') {
    const text = typeof value === 'number' ? (Number.isInteger(value) && value >= 0 ? String(value) : null) : value.trim();
    if (text === null || !/^\d+$/.test(text)) return { error: 'not a raw integer amount' };
    const n = Number(BigInt(text));
    return Number.isSafeInteger(n) ? { raw: n } : { error: 'raw amount exceeds 2^53 - 1' };
  }
  try {
    return { raw: parseScaled('amount', value, 6) };
  } catch (error) {
    if (error instanceof UnitError) return { error: `not a decimal amount: ${error.reason}` };
    throw error;
  }
}

export interface HistoryAmountsDecision {
  readonly unit: HistoryAmountUnit;
  readonly source: 'config' | 'evidence' | 'assumed';
  readonly evidence: HistoryUnitEvidence | null;
}

export interface HistoryAmountsLog {
  info(fields: Readonly<Record<string, unknown>>, message: string): void;
  warn(fields: Readonly<Record<string, unknown>>, message: string): void;
}

/** The run's unit of history amounts: configured, or settled by the first page that proves one (`auto`). */
export class HistoryAmounts {
  private settled: HistoryAmountsDecision | null;
  private contradicted = false;

  constructor(
    readonly setting: HistoryAmountsSetting,
    private readonly log: HistoryAmountsLog | null = null,
  ) {
    this.settled = setting === 'auto' ? null : { unit: setting, source: 'config', evidence: null };
  }

  /** The unit to read a page in, given its elements (read before any of them is parsed). */
  unitForPage(elements: readonly unknown[]): HistoryAmountUnit {
    const evidence = historyUnitFromShape(elements.flatMap(amountsOf));
    const settled = this.settled;
    if (settled === null) {
      if (evidence === null) return 'raw';
      this.settled = { unit: evidence.unit, source: 'evidence', evidence };
      this.log?.info({ historyAmounts: evidence.unit, setting: 'auto', value: evidence.value, why: evidence.why }, `portfolio history amounts: ${evidence.unit} (detected: ${evidence.why})`);
      return evidence.unit;
    }
    if (evidence !== null && evidence.unit !== settled.unit && !this.contradicted) {
      this.contradicted = true;
      this.log?.warn(
        { historyAmounts: settled.unit, source: settled.source, contradictedBy: evidence.value, why: evidence.why },
        `portfolio history: an amount reads as ${evidence.unit} while ${settled.unit} is ${settled.source === 'config' ? 'configured' : 'settled'}; read as ${settled.unit} (check venue.units.historyAmounts)`,
      );
    }
    return settled.unit;
  }

  /** The unit in force and how it was decided (`assumed`: auto without evidence yet, read as raw). */
  decision(): HistoryAmountsDecision {
    return this.settled ?? { unit: 'raw', source: 'assumed', evidence: null };
  }
}

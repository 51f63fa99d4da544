/**
 * The units the socket feed sends sizes in, settled from evidence rather than guessed (issue 13: no capture of the
 * live venue's socket exists; its REST book sends raw 1e6 integers, one source calls the socket's sizes shares).
 *
 * Owns: the current unit of socket book sizes and of socket order/position amounts, how each is settled, and the
 * pure comparisons that settle them:
 * - Book sizes, `auto`: unsettled at start. The feed then parses each book frame both ways (raw integers, and shares
 *   → raw) and the book store compares the candidates with the market's REST book (`bookUnitFromEvidence`): the one
 *   whose every level equals the REST book's is the unit (sizes equal → raw like REST; exactly 1e6 apart → shares).
 *   A non-empty book is needed; a book that moved between the two reads proves nothing and the next pair is tried.
 *   Until settled a market with an unapplied socket frame is not quoted (the book store reports `units-unsettled`).
 * - Amounts, `auto`: assumed raw (the specification writes the same order fields, `remainingSize`, `matchedSize`,
 *   as raw integers) and settled by the first PLACEMENT frame of one of the bot's own orders, whose remaining size is
 *   the order's size, known exactly (`amountUnitFromSize`). A switch is logged and counted, and the caller resyncs
 *   every market, so anything read in the wrong unit meanwhile is repaired from REST.
 * - A configured `raw` or `shares` is settled from the start and never changes.
 *
 * Invariants: each unit settles at most once (later evidence is only compared, never applied); listeners hear each
 * settlement once, with what settled it; nothing here throws into a caller.
 */
import { parseScaled, sharesToRaw } from '../core/venue-rules/index.js';
import { sameSide } from './book-state.js';
import type { BookSnapshot } from './snapshot.js';

export type SizeUnit = 'raw' | 'shares';
export type UnitSetting = SizeUnit | 'auto';
export type UnitSubject = 'bookSize' | 'amounts';

export interface UnitSettlement {
  readonly what: UnitSubject;
  readonly unit: SizeUnit;
  /** `config`: configured; `evidence`: compared with REST / an own order; */
  readonly source: 'config' | 'evidence';
  /** The unit differs from the one assumed before the evidence (raw, the REST book's unit). */
  readonly switched: boolean;
  /** What settled it, for the log (market, the size as sent on the socket, the REST or order size raw). */
  readonly evidence: Readonly<Record<string, unknown>> | null;
}

export interface SocketUnitsConfig {
  readonly socketBookSize: UnitSetting;
  readonly socketAmounts: UnitSetting;
}

/** The assumption before any evidence: the REST book's recorded unit, and the specification's for order fields. */
export const ASSUMED_UNIT: SizeUnit = 'raw';

export class SocketUnits {
  private book: SizeUnit | null;
  private amountUnit: SizeUnit;
  private amountsSettled: boolean;
  private readonly listeners = new Set<(settlement: UnitSettlement) => void>();

  constructor(readonly config: SocketUnitsConfig = { socketBookSize: 'auto', socketAmounts: 'auto' }) {
    this.book = config.socketBookSize === 'auto' ? null : config.socketBookSize;
    this.amountUnit = config.socketAmounts === 'auto' ? ASSUMED_UNIT : config.socketAmounts;
    this.amountsSettled = config.socketAmounts !== 'auto';
  }

  /** The unit of socket book sizes, or null while it is not settled (`auto` without evidence yet). */
  bookSize(): SizeUnit | null {
    return this.book;
  }

  /** The unit order-event and position amounts are read in now (assumed raw in `auto` until evidence). */
  amounts(): SizeUnit {
    return this.amountUnit;
  }

  amountsSettledByEvidence(): boolean {
    return this.amountsSettled;
  }

  /** Listeners hear every settlement (call `describe()` for the configured ones at start). */
  onSettled(listener: (settlement: UnitSettlement) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Settles the book-size unit from evidence (a no-op once settled). Returns true when it settled now. */
  settleBookSize(unit: SizeUnit, evidence: Readonly<Record<string, unknown>>): boolean {
    if (this.book !== null) return false;
    this.book = unit;
    this.emit({ what: 'bookSize', unit, source: 'evidence', switched: unit !== ASSUMED_UNIT, evidence });
    return true;
  }

  /** Settles the amount unit from evidence (a no-op once settled). Returns true when the unit changed. */
  settleAmounts(unit: SizeUnit, evidence: Readonly<Record<string, unknown>>): boolean {
    if (this.amountsSettled) return false;
    this.amountsSettled = true;
    const switched = unit !== this.amountUnit;
    this.amountUnit = unit;
    this.emit({ what: 'amounts', unit, source: 'evidence', switched, evidence });
    return switched;
  }

  /** What is known now, for the start-up log. */
  describe(): Record<string, string> {
    return {
      socketBookSize: this.book ?? 'unsettled (auto: compared with the first REST book)',
      socketAmounts:
        this.config.socketAmounts === 'auto' && !this.amountsSettled
          ? `${this.amountUnit} (auto: assumed until a placement frame of the bot's own order shows it)`
          : this.amountUnit,
    };
  }

  private emit(settlement: UnitSettlement): void {
    for (const listener of this.listeners) {
      try {
        listener(settlement);
      } catch {
        // a listener's failure is its own; the settlement stands
      }
    }
  }
}

/** A socket book frame parsed both ways while the unit is unsettled (null: that reading failed). */
export interface BookCandidates {
  readonly raw: BookSnapshot | null;
  readonly shares: BookSnapshot | null;
}

/**
 * The unit whose reading of the socket book equals the REST book level for level (prices and raw sizes), or null
 * when neither or both do (an empty book, or a book that moved between the two reads, proves nothing).
 */
export function bookUnitFromEvidence(candidates: BookCandidates, rest: BookSnapshot): { readonly unit: SizeUnit; readonly evidence: Record<string, unknown> } | null {
  if (rest.bids.length + rest.asks.length === 0) return null;
  const rawMatches = candidates.raw !== null && sameLevels(candidates.raw, rest);
  const sharesMatches = candidates.shares !== null && sameLevels(candidates.shares, rest);
  if (rawMatches === sharesMatches) return null;
  const first = rest.bids[0] ?? rest.asks[0];
  const restSizeRaw = first?.sizeRaw ?? null;
  // The size as the socket sent it: the raw reading is the number itself.
  const sentSize = rawMatches ? restSizeRaw : restSizeRaw === null ? null : restSizeRaw / 1_000_000;
  return { unit: rawMatches ? 'raw' : 'shares', evidence: { socketSize: sentSize, restSizeRaw, levels: rest.bids.length + rest.asks.length } };
}

function sameLevels(a: BookSnapshot, b: BookSnapshot): boolean {
  return sameSide(a.bids, b.bids) && sameSide(a.asks, b.asks);
}


/**
 * The unit in which `sent` (an amount as the socket sent it) equals `knownRaw` (the same amount known exactly, e.g.
 * an own order's size), or null when neither or both readings match.
 */
export function amountUnitFromSize(sent: unknown, knownRaw: number): SizeUnit | null {
  if (typeof sent !== 'string' && typeof sent !== 'number') return null;
  if (!Number.isSafeInteger(knownRaw) || knownRaw <= 0) return null;
  const asRaw = tryRead(() => parseScaled('amount', sent, 0));
  const asShares = tryRead(() => sharesToRaw('amount', sent));
  const raw = asRaw === knownRaw;
  const shares = asShares === knownRaw;
  if (raw === shares) return null;
  return raw ? 'raw' : 'shares';
}

function tryRead(read: () => number): number | null {
  try {
    return read();
  } catch {
    return null;
  }
}

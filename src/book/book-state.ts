/**
 * An immutable, validated order book: the YES book of one market at one instant, or the NO view derived
 * from it. Implements the strategy contract's `BookView`.
 *
 * Owns: the validation of a full snapshot (the only way in) and every read the strategy needs.
 * Data structure: the two sides as sorted `Level` arrays in best-first order (the venue already sends them
 * sorted, so a snapshot is validated and copied in one pass, never sorted) plus a cumulative-size array per
 * side. Best bid/ask, mid, microprice and the adjusted midpoint are computed once at construction; depth
 * within N ticks of the touch is a binary search plus one prefix-sum read.
 *
 * Invariants (checked by `fromSnapshot`, so every instance holds them):
 * - every price is an integer tick in [1, 999]; every size a positive safe integer (raw);
 * - bids strictly descending, asks strictly ascending (no duplicate prices);
 * - not crossed or locked: best bid < best ask when both sides exist;
 * - per-side total size is a safe integer; adjustedMidpoint is null or finite in [0, 1].
 * The NO view maps a YES ask at p to a NO bid at 1 − p and a YES bid at p to a NO ask at 1 − p, sizes
 * carried over; `complement()` of a complement is the original instance.
 */
import { MAX_TICK, MIN_TICK, TICKS_PER_UNIT, UnitError, type Level } from '../core/venue-rules/index.js';
import type { BookView } from '../strategy/contract.js';
import { BookRejectedError } from './errors.js';
import type { BookSnapshot } from './snapshot.js';

const EMPTY_CUMULATIVE = new Float64Array(0);

export class BookState implements BookView {
  readonly bestBidTicks: number | null;
  readonly bestAskTicks: number | null;
  readonly mid: number | null;
  readonly microprice: number | null;
  private complementView: BookState | null = null;

  private constructor(
    readonly bids: readonly Level[],
    readonly asks: readonly Level[],
    readonly adjustedMidpoint: number | null,
    /** cumulative[i] = total raw size of levels 0..i of the side. */
    private readonly bidCumulative: Float64Array,
    private readonly askCumulative: Float64Array,
  ) {
    const bestBid = bids[0];
    const bestAsk = asks[0];
    this.bestBidTicks = bestBid === undefined ? null : bestBid.priceTicks;
    this.bestAskTicks = bestAsk === undefined ? null : bestAsk.priceTicks;
    if (bestBid !== undefined && bestAsk !== undefined) {
      this.mid = (bestBid.priceTicks + bestAsk.priceTicks) / (2 * TICKS_PER_UNIT);
      const weight = bestBid.sizeRaw + bestAsk.sizeRaw;
      this.microprice =
        (bestBid.priceTicks * bestAsk.sizeRaw + bestAsk.priceTicks * bestBid.sizeRaw) / weight / TICKS_PER_UNIT;
    } else {
      this.mid = null;
      this.microprice = null;
    }
  }

  static readonly EMPTY: BookState = new BookState([], [], null, EMPTY_CUMULATIVE, EMPTY_CUMULATIVE);

  /**
   * Validates a full snapshot and builds the book from it, copying the levels (the caller's arrays may be
   * reused). Throws `BookRejectedError` naming the first offending field; nothing is built then.
   */
  static fromSnapshot(snapshot: BookSnapshot): BookState {
    if (!Array.isArray(snapshot.bids)) throw new BookRejectedError('bids', snapshot.bids, 'must be an array of levels');
    if (!Array.isArray(snapshot.asks)) throw new BookRejectedError('asks', snapshot.asks, 'must be an array of levels');
    const bids = new Array<Level>(snapshot.bids.length);
    const asks = new Array<Level>(snapshot.asks.length);
    const bidCumulative = copySide('bids', snapshot.bids, bids, -1);
    const askCumulative = copySide('asks', snapshot.asks, asks, 1);
    const bestBid = bids[0];
    const bestAsk = asks[0];
    if (bestBid !== undefined && bestAsk !== undefined && bestBid.priceTicks >= bestAsk.priceTicks) {
      const kind = bestBid.priceTicks === bestAsk.priceTicks ? 'locked' : 'crossed';
      throw new BookRejectedError(
        'asks[0].priceTicks',
        bestAsk.priceTicks,
        `book is ${kind}: best ask must be above best bid ${bestBid.priceTicks} (ticks)`,
      );
    }
    const adjusted = snapshot.adjustedMidpoint ?? null;
    if (adjusted !== null && !(typeof adjusted === 'number' && Number.isFinite(adjusted) && adjusted >= 0 && adjusted <= 1)) {
      throw new BookRejectedError('adjustedMidpoint', adjusted, 'must be null or a number in [0, 1]');
    }
    return new BookState(bids, asks, adjusted, bidCumulative, askCumulative);
  }

  /** True when neither side has a level. */
  get isEmpty(): boolean {
    return this.bids.length === 0 && this.asks.length === 0;
  }

  get totalBidRaw(): number {
    return lastOf(this.bidCumulative);
  }

  get totalAskRaw(): number {
    return lastOf(this.askCumulative);
  }

  depthWithin(ticks: number): { readonly bidRaw: number; readonly askRaw: number } {
    if (!Number.isInteger(ticks) || ticks < 0) {
      throw new UnitError('ticks', ticks, 'depth distance must be a non-negative integer number of ticks');
    }
    let bidRaw = 0;
    let askRaw = 0;
    if (this.bestBidTicks !== null) {
      bidRaw = cumulativeAt(this.bidCumulative, countAtOrAbove(this.bids, this.bestBidTicks - ticks));
    }
    if (this.bestAskTicks !== null) {
      askRaw = cumulativeAt(this.askCumulative, countAtOrBelow(this.asks, this.bestAskTicks + ticks));
    }
    return { bidRaw, askRaw };
  }

  /**
   * The other outcome's view of the same liquidity: bids from this book's asks at 1 − p, asks from its bids
   * at 1 − p. Built once and cached; the complement of the complement is this instance.
   */
  complement(): BookState {
    if (this.complementView === null) {
      const view = new BookState(
        mirror(this.asks),
        mirror(this.bids),
        this.adjustedMidpoint === null ? null : 1 - this.adjustedMidpoint,
        this.askCumulative,
        this.bidCumulative,
      );
      view.complementView = this;
      this.complementView = view;
    }
    return this.complementView;
  }

  /** Same price levels (prices and sizes) on both sides; the adjusted midpoint is not compared. */
  sameLevels(other: Pick<BookView, 'bids' | 'asks'>): boolean {
    return sameSide(this.bids, other.bids) && sameSide(this.asks, other.asks);
  }
}

/**
 * Validates one side and copies it into `out`; returns the cumulative sizes. `direction` is −1 for bids
 * (strictly descending prices) and +1 for asks (strictly ascending).
 */
function copySide(side: 'bids' | 'asks', source: readonly Level[], out: Level[], direction: 1 | -1): Float64Array {
  if (source.length === 0) return EMPTY_CUMULATIVE;
  const cumulative = new Float64Array(source.length);
  let total = 0;
  let previous = 0;
  for (let i = 0; i < source.length; i++) {
    const level = source[i];
    if (level === null || typeof level !== 'object') throw new BookRejectedError(`${side}[${i}]`, level, 'not a level');
    const price = level.priceTicks;
    const size = level.sizeRaw;
    if (!Number.isInteger(price) || price < MIN_TICK || price > MAX_TICK) {
      throw new BookRejectedError(
        `${side}[${i}].priceTicks`,
        price,
        `price must be an integer tick in [${MIN_TICK}, ${MAX_TICK}] (inside (0, 1) on the 0.001 grid)`,
      );
    }
    if (!Number.isSafeInteger(size) || size <= 0) {
      throw new BookRejectedError(`${side}[${i}].sizeRaw`, size, 'size must be a positive integer raw amount');
    }
    if (i > 0) {
      if (price === previous) throw new BookRejectedError(`${side}[${i}].priceTicks`, price, 'duplicate price level');
      if ((price - previous) * direction < 0) {
        const order = direction < 0 ? 'descending (best bid first)' : 'ascending (best ask first)';
        throw new BookRejectedError(`${side}[${i}].priceTicks`, price, `${side} must be strictly ${order}; previous ${previous}`);
      }
    }
    total += size;
    if (!Number.isSafeInteger(total)) throw new BookRejectedError(`${side}[${i}].sizeRaw`, size, 'total side size too large');
    cumulative[i] = total;
    out[i] = { priceTicks: price, sizeRaw: size };
    previous = price;
  }
  return cumulative;
}

function mirror(levels: readonly Level[]): Level[] {
  const out = new Array<Level>(levels.length);
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i]!;
    out[i] = { priceTicks: TICKS_PER_UNIT - level.priceTicks, sizeRaw: level.sizeRaw };
  }
  return out;
}

/** Number of leading bids (descending prices) priced at or above `floor`: binary search. */
function countAtOrAbove(bids: readonly Level[], floor: number): number {
  let lo = 0;
  let hi = bids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bids[mid]!.priceTicks >= floor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of leading asks (ascending prices) priced at or below `ceiling`: binary search. */
function countAtOrBelow(asks: readonly Level[], ceiling: number): number {
  let lo = 0;
  let hi = asks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (asks[mid]!.priceTicks <= ceiling) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function cumulativeAt(cumulative: Float64Array, count: number): number {
  return count === 0 ? 0 : cumulative[count - 1]!;
}

function lastOf(cumulative: Float64Array): number {
  return cumulative.length === 0 ? 0 : cumulative[cumulative.length - 1]!;
}

/** Two sides level for level equal (price and raw size). */
export function sameSide(a: readonly Level[], b: readonly Level[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.priceTicks !== y.priceTicks || x.sizeRaw !== y.sizeRaw) return false;
  }
  return true;
}

/**
 * Order-book benchmark: full-snapshot applies per second (whole run, GC included) and median µs per apply
 * (over batches of 100; validation + copy + prefix sums) for a 100-level book (50 bids + 50 asks) and a
 * 200-level one (100 per side); the cost of
 * reading best bid/ask, mid, microprice and depth, of deriving the NO view, and (for scale) of parsing an
 * `orderbookUpdate` wire frame with zod. Target: ≥ 50,000 applies/s on one core for the 100-level book.
 *
 * Run: npx tsx bench/book.ts   (exports `run()` for bench/all.ts)
 */
import { pathToFileURL } from 'node:url';
import { OrderBook } from '../src/book/order-book.js';
import type { BookSnapshot } from '../src/book/snapshot.js';
import { frameParsers } from '../src/exchange/socket-wire.js';
import type { Level } from '../src/core/venue-rules/index.js';

function book(levelsPerSide: number, shift: number): BookSnapshot {
  const bids: Level[] = [];
  const asks: Level[] = [];
  for (let i = 0; i < levelsPerSide; i++) {
    bids.push({ priceTicks: 499 - i - shift, sizeRaw: 1_000_000 + i * 1_000 + shift });
    asks.push({ priceTicks: 501 + i - shift, sizeRaw: 2_000_000 + i * 1_000 + shift });
  }
  return { bids, asks, adjustedMidpoint: 0.5 };
}

function wire(snapshot: BookSnapshot): unknown {
  const side = (levels: readonly Level[]) => levels.map((l) => ({ price: (l.priceTicks / 1000).toFixed(3), size: (l.sizeRaw / 1e6).toFixed(6) }));
  return { marketSlug: 'bench', orderbook: { bids: side(snapshot.bids), asks: side(snapshot.asks), tokenId: '1', adjustedMidpoint: 0.5 }, timestamp: 0 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

interface ApplyFigures {
  readonly perSecond: number;
  readonly medianMicros: number;
}

/**
 * Alternates between distinct snapshots (so every apply is a real change), timing batches of 100: the
 * rate is over the whole run (garbage collection included), the median over batches.
 */
function measureApplies(levelsPerSide: number, batches: number, withNoView = false): ApplyFigures {
  const snapshots = [0, 1, 2, 3].map((shift) => book(levelsPerSide, shift));
  const target = new OrderBook('bench');
  const batch = 100;
  let sink = 0;
  const step = withNoView
    ? (i: number) => {
        target.apply(snapshots[i & 3]!);
        sink += target.no!.bestBidTicks ?? 0;
      }
    : (i: number) => {
        target.apply(snapshots[i & 3]!);
      };
  for (let i = 0; i < 20_000; i++) step(i); // warm-up
  const perApply: number[] = [];
  const start = process.hrtime.bigint();
  for (let b = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) step(b * batch + i);
    perApply.push(Number(process.hrtime.bigint() - t0) / batch / 1_000);
  }
  if (sink === -1) console.log(sink);
  const totalSeconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { perSecond: Math.round((batches * batch) / totalSeconds), medianMicros: round(median(perApply), 3) };
}

/** Nanoseconds per call of `read`, over `iterations` calls (median of 7 runs). */
function nanosPerCall(iterations: number, read: (i: number) => number): number {
  let sink = 0;
  for (let i = 0; i < iterations; i++) sink += read(i); // warm-up
  const runs: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) sink += read(i);
    runs.push(Number(process.hrtime.bigint() - t0) / iterations);
  }
  if (sink === Number.MIN_VALUE) console.log(sink); // keep the reads observable
  return round(median(runs), 1);
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export async function run(): Promise<Record<string, number | string>> {
  const apply100 = measureApplies(50, 2_000);
  const apply200 = measureApplies(100, 1_000);

  const target = new OrderBook('bench');
  target.apply(book(50, 0));
  const yes = target.yes!;
  const readTouch = nanosPerCall(1_000_000, () => (yes.bestBidTicks ?? 0) + (yes.bestAskTicks ?? 0) + (yes.mid ?? 0) + (yes.microprice ?? 0));
  const readDepth = nanosPerCall(1_000_000, (i) => yes.depthWithin(i & 31).bidRaw);
  const withNoView = measureApplies(50, 2_000, true);
  const parser = frameParsers({ amountUnit: 'raw' });
  const frame = wire(book(50, 0));
  const parseWire = nanosPerCall(5_000, () => (parser.parse('orderbookUpdate', frame).ok ? 1 : 0));

  return {
    'apply_100_levels_per_s': apply100.perSecond,
    'apply_100_levels_median_us': apply100.medianMicros,
    'apply_200_levels_per_s': apply200.perSecond,
    'apply_200_levels_median_us': apply200.medianMicros,
    'read_best_mid_microprice_ns': readTouch,
    'read_depth_within_ns': readDepth,
    'apply_plus_no_view_100_levels_per_s': withNoView.perSecond,
    'apply_plus_no_view_100_levels_median_us': withNoView.medianMicros,
    'parse_wire_frame_100_levels_us': round(parseWire / 1_000, 2),
    'target_apply_per_s': 50_000,
    'meets_target': apply100.perSecond >= 50_000 ? 'yes' : 'NO',
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await run();
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(42)} ${value}`);
}

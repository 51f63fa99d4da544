/**
 * The markout sampler on a real ledger file and a manual clock: horizons written as they fall due, the mid and the
 * model references, exactly once across a crash and restart (horizons that fell due while the bot was down recorded
 * as missing, pending ones resumed), and the bounded memory.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { openLedger, type LedgerStore } from '../../../src/ledger/store.js';
import { MarkoutSampler, type MarkoutReferences, type MissingReason } from '../../../src/markouts/sampler.js';
import { fillInput, makeTempDir, T0 } from '../../support/ledger-fixtures.js';

const temp = makeTempDir('markout-sampler-');
afterAll(() => temp.cleanup());

interface Seen {
  readonly markouts: [number, string, number][];
  readonly missing: [number, string, MissingReason][];
  readonly errors: unknown[];
}

function sampler(ledger: LedgerStore, clock: ManualClock, refs: Map<string, MarkoutReferences>, seen: Seen, maxPending?: number): MarkoutSampler {
  return new MarkoutSampler({
    ledger: ledger.markouts,
    scheduler: clock,
    strategy: 'fixed-spread',
    references: (slug) => refs.get(slug) ?? { mid: null, model: null },
    priced: (slug) => slug === 'btc-above',
    observer: {
      onMarkout: (h, r, v) => seen.markouts.push([h, r, v]),
      onMissing: (h, r, why) => seen.missing.push([h, r, why]),
      onError: (e) => seen.errors.push(e),
    },
    ...(maxPending === undefined ? {} : { maxPending }),
  });
}

type Row = { fill_id: number; horizon_ms: number; reference: string; ref_micros: number | null; missing_reason: string | null };

function rows(ledger: LedgerStore): Row[] {
  return ledger.db.prepare(`SELECT fill_id, horizon_ms, reference, ref_micros, missing_reason FROM fill_markouts ORDER BY fill_id, reference, horizon_ms`).all() as Row[];
}

const newSeen = (): Seen => ({ markouts: [], missing: [], errors: [] });

describe('MarkoutSampler', () => {
  it('writes each horizon once as it falls due, resumes after a crash, and records what fell due while down as missing', () => {
    const path = join(temp.dir, 'restart.sqlite');
    const clock = new ManualClock(T0);
    const refs = new Map<string, MarkoutReferences>([
      ['plain', { mid: 510_000, model: null }],
      ['btc-above', { mid: 400_000, model: 420_000 }],
    ]);
    let ledger = openLedger({ path, now: () => clock.now() });
    // A fill from before markouts began on this ledger: never judged.
    ledger.recordFill(fillInput({ tradeEventId: 'before', marketSlug: 'plain', atMs: T0 - 1_000 }));
    let seen = newSeen();
    let bot = sampler(ledger, clock, refs, seen);
    bot.start();
    // BUY YES 10 at 0.500 in a book-only market; SELL YES 10 at 0.450 in a priced one.
    ledger.recordFill(fillInput({ tradeEventId: 'f1', marketSlug: 'plain', atMs: T0 }));
    ledger.recordFill(fillInput({ tradeEventId: 'f2', orderId: 'order-2', marketSlug: 'btc-above', side: 'SELL', priceTicks: 450, atMs: T0 }));
    bot.fillBooked();
    clock.flush();
    expect(rows(ledger).map((r) => [r.fill_id, r.horizon_ms, r.reference, r.ref_micros])).toEqual([
      [2, 0, 'mid', 510_000],
      [3, 0, 'mid', 400_000],
      [3, 0, 'model', 420_000],
    ]);
    // f1 earned 0.01 × 10 at fill time; f2 (sold at 0.45) 0.05 × 10 against the mid, 0.03 × 10 against the model.
    expect(seen.markouts).toEqual([
      [0, 'mid', 100_000],
      [0, 'mid', 500_000],
      [0, 'model', 300_000],
    ]);
    refs.set('plain', { mid: null, model: null });
    clock.advance(1_000);
    refs.set('plain', { mid: 490_000, model: null });
    clock.advance(9_000);
    expect(rows(ledger).filter((r) => r.fill_id === 2).map((r) => [r.horizon_ms, r.ref_micros, r.missing_reason])).toEqual([
      [0, 510_000, null],
      [1_000, null, 'no-reference'],
      [10_000, 490_000, null],
    ]);
    expect(bot.pendingCount()).toBe(2);

    // Crash: the process is gone (its timers with it), the ledger file stays. A fill is booked by the venue
    // catch-up 50 s in, while no sampler runs; the bot is back 110 s after the fills.
    bot.stop();
    ledger.close();
    clock.advance(40_000);
    ledger = openLedger({ path, now: () => clock.now() });
    ledger.recordFill(fillInput({ tradeEventId: 'f3', orderId: 'order-3', marketSlug: 'plain', atMs: clock.now() }));
    ledger.close();
    clock.advance(60_000);
    ledger = openLedger({ path, now: () => clock.now() });
    seen = newSeen();
    bot = sampler(ledger, clock, refs, seen);
    bot.start();
    // The 60 s horizon of f1 and f2 fell due while down (at 60 s, tolerance 6 s); f3's 0 s … 10 s too (its 60 s is due at 110 s).
    const downRows = rows(ledger).filter((r) => r.missing_reason === 'bot-down');
    expect(downRows.map((r) => [r.fill_id, r.horizon_ms, r.reference])).toEqual([
      [2, 60_000, 'mid'],
      [3, 60_000, 'mid'],
      [3, 60_000, 'model'],
      [4, 0, 'mid'],
      [4, 1_000, 'mid'],
      [4, 10_000, 'mid'],
    ]);
    expect(rows(ledger).find((r) => r.fill_id === 4 && r.horizon_ms === 60_000)).toMatchObject({ ref_micros: 490_000 });
    expect(bot.pendingCount()).toBe(3);
    // Every 5 min horizon, sampled on time after the restart.
    clock.advance(300_000);
    expect(bot.pendingCount()).toBe(0);
    const all = rows(ledger);
    expect(all).toHaveLength(5 + 10 + 5);
    expect(new Set(all.map((r) => `${r.fill_id}|${r.horizon_ms}|${r.reference}`)).size).toBe(all.length);
    expect(all.filter((r) => r.horizon_ms === 300_000).every((r) => r.ref_micros !== null)).toBe(true);
    // Nothing guessed: every missing row has no price, every price row no reason.
    expect(all.every((r) => (r.ref_micros === null) === (r.missing_reason !== null))).toBe(true);
    expect(ledger.db.prepare(`SELECT COUNT(*) FROM markout_fills WHERE complete = 0`).pluck().get()).toBe(0);
    expect(seen.errors).toEqual([]);

    // Another start on the same ledger writes nothing twice.
    bot.stop();
    const again = newSeen();
    const second = sampler(ledger, clock, refs, again);
    second.start();
    clock.advance(1_000);
    expect(rows(ledger)).toHaveLength(20);
    expect(again.markouts).toEqual([]);
    // A second write of a key is ignored and said so.
    expect(ledger.markouts.write({ register: [], rows: [{ fillId: 2, horizonMs: 0, reference: 'mid', refMicros: 1, missingReason: null, sampledAtMs: clock.now() }], complete: [] })).toEqual([false]);
    expect(rows(ledger)[0]).toMatchObject({ ref_micros: 510_000 });
    second.stop();
    ledger.close();
  });

  it('keeps at most maxPending fills in memory; beyond, a fill is recorded as overflow, not guessed', () => {
    const clock = new ManualClock(T0);
    const ledger = openLedger({ path: ':memory:', now: () => clock.now() });
    const refs = new Map<string, MarkoutReferences>([['plain', { mid: 500_000, model: null }]]);
    const seen = newSeen();
    const bot = sampler(ledger, clock, refs, seen, 2);
    bot.start();
    for (const id of ['a', 'b', 'c']) ledger.recordFill(fillInput({ tradeEventId: id, marketSlug: 'plain', atMs: T0 }));
    bot.fillBooked();
    clock.flush();
    expect(bot.pendingCount()).toBe(2);
    expect(rows(ledger).filter((r) => r.fill_id === 3).map((r) => r.missing_reason)).toEqual(['overflow', 'overflow', 'overflow', 'overflow', 'overflow']);
    expect(seen.missing.filter(([, , why]) => why === 'overflow')).toHaveLength(5);
    clock.advance(400_000);
    expect(bot.pendingCount()).toBe(0);
    expect(rows(ledger)).toHaveLength(15);
    bot.stop();
    ledger.close();
  });

  it('resumes the open fills of an earlier run in id order, never holding more than maxPending', () => {
    const path = join(temp.dir, 'resume-bound.sqlite');
    const clock = new ManualClock(T0);
    const refs = new Map<string, MarkoutReferences>([['plain', { mid: 500_000, model: null }]]);
    let ledger = openLedger({ path, now: () => clock.now() });
    const first = sampler(ledger, clock, refs, newSeen());
    first.start();
    for (const id of ['a', 'b', 'c']) ledger.recordFill(fillInput({ tradeEventId: id, marketSlug: 'plain', atMs: T0 }));
    first.fillBooked();
    clock.flush();
    first.stop();
    ledger.close();
    clock.advance(5_000);
    ledger = openLedger({ path, now: () => clock.now() });
    const seen = newSeen();
    const bounded = sampler(ledger, clock, refs, seen, 1);
    bounded.start();
    let most = bounded.pendingCount();
    for (let step = 0; step < 2_000; step += 1) {
      clock.advance(250);
      most = Math.max(most, bounded.pendingCount());
    }
    expect(most).toBe(1);
    expect(bounded.pendingCount()).toBe(0);
    const all = rows(ledger);
    expect(all).toHaveLength(15);
    // 1 s fell due while down; the first fill is sampled on time; the others wait for room and are late, never guessed.
    expect(all.filter((r) => r.horizon_ms === 1_000).map((r) => r.missing_reason)).toEqual(['bot-down', 'bot-down', 'bot-down']);
    expect(all.filter((r) => r.fill_id === 1 && r.horizon_ms >= 10_000).map((r) => r.ref_micros)).toEqual([500_000, 500_000, 500_000]);
    expect(all.filter((r) => r.fill_id > 1 && r.horizon_ms >= 10_000 && r.horizon_ms < 300_000).every((r) => r.missing_reason === 'late')).toBe(true);
    expect(seen.errors).toEqual([]);
    bounded.stop();
    ledger.close();
  });

  it('a fill booked too late for its first horizons records them as late, and a failed write is retried', () => {
    const clock = new ManualClock(T0);
    const ledger = openLedger({ path: ':memory:', now: () => clock.now() });
    const refs = new Map<string, MarkoutReferences>([['plain', { mid: 500_000, model: null }]]);
    const seen = newSeen();
    let failNext = true;
    const flaky = {
      startFillId: () => ledger.markouts.startFillId(),
      lastJudgedFillId: () => ledger.markouts.lastJudgedFillId(),
      unjudgedFills: (after: number, limit: number) => ledger.markouts.unjudgedFills(after, limit),
      openFills: (after?: number, limit?: number) => ledger.markouts.openFills(after, limit),
      write: (batch: Parameters<LedgerStore['markouts']['write']>[0]) => {
        if (failNext) {
          failNext = false;
          throw new Error('database is locked');
        }
        return ledger.markouts.write(batch);
      },
    };
    const bot = new MarkoutSampler({
      ledger: flaky,
      scheduler: clock,
      strategy: 's',
      references: (slug) => refs.get(slug) ?? { mid: null, model: null },
      priced: () => false,
      observer: { onMissing: (h, r, why) => seen.missing.push([h, r, why]), onError: (e) => seen.errors.push(e) },
    });
    bot.start();
    clock.advance(3_000);
    // Made while this run was up, reported 2 s after it happened: 0 s and 1 s can no longer be sampled.
    ledger.recordFill(fillInput({ tradeEventId: 'late', marketSlug: 'plain', atMs: clock.now() - 2_000 }));
    bot.fillBooked();
    clock.flush();
    expect(seen.errors).toHaveLength(1);
    expect(rows(ledger)).toHaveLength(0);
    clock.advance(250);
    expect(rows(ledger).map((r) => [r.horizon_ms, r.missing_reason])).toEqual([
      [0, 'late'],
      [1_000, 'late'],
    ]);
    bot.stop();
    ledger.close();
  });
});

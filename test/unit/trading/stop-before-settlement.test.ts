/**
 * The stop before settlement holds at the moment a request leaves, not only when it is planned (src/trading/core.ts →
 * src/orders/plan-requests.ts `withholdUnlessAllowed`): a placement or a replacement of a market planned before its
 * stop but still waiting in the rate limiter at the stop is withheld unsent, so nothing of it reaches the venue at or
 * after the stop, and the halt's cancels follow at once (the cancel-priority request, not a queued placement's answer).
 * The venue here puts every placement and cancel-replace behind a limiter wait on the injected clock, as the client's
 * limiter does when other requests queue ahead.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { parseConfigText, riskLimitsFor } from '../../../src/config/index.js';
import type { LedgerStore } from '../../../src/ledger/index.js';
import type { BookView, QuoteIntent } from '../../../src/strategy/contract.js';
import type { RunnerBooks } from '../../../src/strategy/runner.js';
import type { CancelReplaceBatch, CancelReplaceItemResult, PlaceRequest, PlaceResult } from '../../../src/orders/venue-port.js';
import { TradingCore } from '../../../src/trading/core.js';
import { coreWiring } from '../../support/core-wiring.js';
import { advance, FakeReplaceVenue, settle, until } from '../../support/fake-venue.js';
import { memoryLedger } from '../../support/ledger-fixtures.js';
import { book, market, noView, T0 } from '../../support/views.js';

const CONFIG = parseConfigText('strategy: {name: fixed-spread}\norders: {botTag: st}\n', { source: '<test>', baseDir: '/srv' });
const STOP_MS = riskLimitsFor(CONFIG.risk, 'alpha').stopBeforeExpiryMs;
/** The stop falls 5 s after the start. */
const STOP_AT = T0 + 5_000;
const ALPHA = market({ slug: 'alpha', tokens: { yes: '111', no: '222' }, expiresAtMs: STOP_AT + STOP_MS });

/** Placements and cancel-replaces wait `waitMs` in a limiter before they leave (their `beforeSend` runs then). */
class LimitedVenue extends FakeReplaceVenue {
  waitMs = 0;
  /** Offer cancel-replace (replacements as one request) or not (cancel, then place). */
  replaces = true;
  /** Each request that left the limiter: what and when. */
  readonly left: { readonly op: string; readonly atMs: number }[] = [];

  constructor(private readonly clock: ManualClock) {
    super(() => clock.now());
  }

  override async placeOrder(request: PlaceRequest): Promise<PlaceResult> {
    await this.limiter();
    request.beforeSend?.();
    this.left.push({ op: 'placeOrder', atMs: this.clock.now() });
    return super.placeOrder(request);
  }

  override async cancelReplace(batch: CancelReplaceBatch): Promise<readonly CancelReplaceItemResult[]> {
    await this.limiter();
    batch.beforeSend?.();
    this.left.push({ op: 'cancelReplace', atMs: this.clock.now() });
    return super.cancelReplace(batch);
  }

  private limiter(): Promise<void> {
    return new Promise((resolve) => this.clock.schedule(this.waitMs, resolve));
  }
}

class Books implements RunnerBooks {
  private readonly view = { yes: book({ bids: [[480, 100]], asks: [[520, 100]] }), no: noView(book({ bids: [[480, 100]], asks: [[520, 100]] })) };
  books(_slug: string): { readonly yes: BookView; readonly no: BookView } | null {
    return this.view;
  }
  onChange(_listener: (slug: string) => void): () => void {
    return () => undefined;
  }
}

const ledgers: LedgerStore[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

function build(replaces: boolean) {
  const scheduler = new ManualClock(T0);
  const venue = new LimitedVenue(scheduler);
  venue.offersCancelReplace = replaces;
  const ledger = memoryLedger({ now: () => scheduler.now() });
  ledgers.push(ledger);
  const quote = { bid: { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 470, sizeRaw: 20_000_000, postOnly: true } as QuoteIntent };
  const core = new TradingCore({
    venue,
    scheduler,
    ...coreWiring(CONFIG, scheduler, venue, new Map([[ALPHA.slug, ALPHA]])),
    strategy: { quote: () => [quote.bid] },
    ledger: ledger.positionBook,
    books: new Books(),
    onFill: () => undefined,
  });
  core.armExpiryRequotes((atMs, fn) => scheduler.schedule(atMs - scheduler.now(), fn));
  return { scheduler, venue, core, quote };
}

describe('the stop before settlement at the moment a request leaves', () => {
  it('a placement planned before the stop but leaving the limiter after it is withheld; nothing rests from the stop on', async () => {
    const t = build(false);
    await settle(t.scheduler, t.core.executor.start());
    // The first quote waits in the limiter until 300 ms past the stop.
    t.venue.waitMs = STOP_AT - t.scheduler.now() + 300;
    t.core.runner.start();
    await advance(t.scheduler, STOP_AT + 2_000 - t.scheduler.now());
    expect(t.venue.left.filter((r) => r.atMs >= STOP_AT)).toEqual([]);
    expect(t.venue.calls.filter((c) => c.op === 'placeOrder')).toEqual([]);
    expect(t.venue.live('alpha')).toEqual([]);
    expect(t.core.executor.openOrders().filter((o) => o.marketSlug === 'alpha')).toEqual([]);
    t.core.stop();
  });

  it('a placement still waiting in the limiter when its market is left is withheld (the left market\'s stop is no longer known)', async () => {
    const t = build(false);
    await settle(t.scheduler, t.core.executor.start());
    // The first quote waits 2 s in the limiter; the market is left 1 s in, 4 s before its stop.
    t.venue.waitMs = 2_000;
    t.core.runner.start();
    await advance(t.scheduler, 1_000);
    const leave = t.core.removeMarket('alpha', { budgetMs: 10_000 });
    await advance(t.scheduler, 3_000);
    await expect(leave).resolves.toMatchObject({ clean: true });
    expect(t.venue.calls.filter((c) => c.op === 'placeOrder')).toEqual([]);
    expect(t.venue.live('alpha')).toEqual([]);
    t.core.stop();
  });

  it('a replacement queued at the stop is withheld and the resting order canceled right after the stop', async () => {
    const t = build(true);
    await settle(t.scheduler, t.core.executor.start());
    t.core.runner.start();
    await until(t.scheduler, () => t.venue.live('alpha').length === 1);
    // Half a second before the stop the quote moves; its cancel-replace waits in the limiter until 500 ms past the stop.
    await advance(t.scheduler, STOP_AT - 500 - t.scheduler.now());
    t.venue.waitMs = 1_000;
    t.quote.bid = { ...t.quote.bid, priceTicks: 460 };
    t.core.requote('alpha');
    await until(t.scheduler, () => t.venue.live('alpha').length === 0, 5_000);
    const canceledAt = t.scheduler.now();
    await advance(t.scheduler, 2_000);
    expect(t.venue.left.filter((r) => r.atMs >= STOP_AT)).toEqual([]);
    expect(t.venue.live('alpha')).toEqual([]);
    // the resting order was canceled as soon as the queued replacement was withheld (at 500 ms past the stop)
    expect(canceledAt).toBeLessThanOrEqual(STOP_AT + 600);
    expect(t.venue.calls.filter((c) => c.op === 'cancelOrders').length).toBeGreaterThan(0);
    t.core.stop();
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookView, MarketInfo, MarketView, OwnOrderView, QuoteIntent, Strategy } from '../../../src/strategy/contract.js';
import { StrategyRunner, type GateResult, type RunnerBooks, type RunnerObserver } from '../../../src/strategy/runner.js';
import type { IntentRejection } from '../../../src/strategy/validate.js';
import { book, fill, market, noView, position, T0, type BookSpec } from '../../support/views.js';

const BID: QuoteIntent = { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 480, sizeRaw: 10_000_000 };
const ASK: QuoteIntent = { slot: 'ask-0', token: 'YES', side: 'SELL', priceTicks: 520, sizeRaw: 10_000_000 };
const MID_50: BookSpec = { bids: [[480, 100]], asks: [[520, 100]] };

function spec(bidTicks: number, askTicks: number): BookSpec {
  return { bids: [[bidTicks, 100]], asks: [[askTicks, 100]] };
}

/** The book store as the runner sees it: books per market, and change listeners. */
class FakeBooks implements RunnerBooks {
  private readonly current = new Map<string, { readonly yes: BookView; readonly no: BookView }>();
  private readonly listeners = new Set<(slug: string) => void>();
  unsubscribed = 0;

  set(slug: string, yes: BookSpec | null): void {
    if (yes === null) {
      this.current.delete(slug);
      return;
    }
    const view = book(yes);
    this.current.set(slug, { yes: view, no: noView(view) });
  }

  /** The book of `slug` changed to `yes`: listeners hear of it. */
  change(slug: string, yes: BookSpec): void {
    this.set(slug, yes);
    for (const listener of [...this.listeners]) listener(slug);
  }

  books(slug: string): { readonly yes: BookView; readonly no: BookView } | null {
    return this.current.get(slug) ?? null;
  }

  onChange(listener: (slug: string) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.unsubscribed += 1;
      this.listeners.delete(listener);
    };
  }
}

class FakeTicker {
  fn: (() => void) | null = null;
  ms: number | null = null;
  calls = 0;
  stopped = false;

  readonly setInterval = (fn: () => void, ms: number): (() => void) => {
    this.calls += 1;
    this.fn = fn;
    this.ms = ms;
    return () => {
      this.stopped = true;
    };
  };

  tick(): void {
    if (this.fn === null || this.stopped) return;
    this.fn();
  }
}

interface Deferred {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function deferred(): Deferred {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback run (submissions resolve on microtasks). */
function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

interface Harness {
  readonly runner: StrategyRunner;
  readonly books: FakeBooks;
  readonly ticker: FakeTicker;
  readonly clock: { now: number };
  /** Every view the strategy saw. */
  readonly views: MarketView[];
  readonly submits: { slug: string; intents: readonly QuoteIntent[] }[];
  readonly gated: { slug: string; intents: readonly QuoteIntent[] }[];
  readonly cycles: { slug: string; latencyMs: number; submitted: number; halt: string | null }[];
  readonly strategyErrors: { slug: string; error: unknown }[];
  readonly cycleErrors: { slug: string; error: unknown }[];
  readonly invalid: { slug: string; rejected: readonly IntentRejection[] }[];
  readonly diagnostics: { slug: string; figures: Readonly<Record<string, number>> }[];
  /** Submissions still waiting, when `holdSubmissions` is set (oldest first). */
  readonly held: Deferred[];
}

interface HarnessOptions {
  readonly markets?: readonly MarketInfo[];
  readonly quote?: (view: MarketView) => QuoteIntent[];
  readonly diagnostics?: (view: MarketView) => Readonly<Record<string, number>>;
  readonly gate?: (slug: string, intents: readonly QuoteIntent[]) => GateResult;
  readonly submit?: (slug: string, intents: readonly QuoteIntent[]) => Promise<unknown>;
  readonly holdSubmissions?: boolean;
  readonly midHistoryMs?: number;
  readonly midHistoryMax?: number;
  /** Books present before start (default: every market at mid 0.5). */
  readonly initialBooks?: Readonly<Record<string, BookSpec | null>>;
  readonly ownOrders?: (slug: string) => readonly OwnOrderView[];
}

function harness(options: HarnessOptions = {}): Harness {
  const markets = options.markets ?? [market({ slug: 'alpha' })];
  const books = new FakeBooks();
  for (const info of markets) books.set(info.slug, options.initialBooks?.[info.slug] === undefined ? MID_50 : options.initialBooks[info.slug] ?? null);
  const ticker = new FakeTicker();
  const clock = { now: T0 };
  const views: MarketView[] = [];
  const submits: Harness['submits'] = [];
  const gated: Harness['gated'] = [];
  const cycles: Harness['cycles'] = [];
  const strategyErrors: Harness['strategyErrors'] = [];
  const cycleErrors: Harness['cycleErrors'] = [];
  const invalid: Harness['invalid'] = [];
  const diagnosticsSeen: Harness['diagnostics'] = [];
  const held: Deferred[] = [];
  const quote = options.quote ?? ((): QuoteIntent[] => [BID, ASK]);
  const strategy: Strategy = {
    quote: (view) => {
      views.push(view);
      return quote(view);
    },
    ...(options.diagnostics ? { diagnostics: options.diagnostics } : {}),
  };
  const observer: RunnerObserver = {
    onQuoteCycle: (slug, latencyMs, submitted, halt) => cycles.push({ slug, latencyMs, submitted, halt }),
    onStrategyError: (slug, error) => strategyErrors.push({ slug, error }),
    onCycleError: (slug, error) => cycleErrors.push({ slug, error }),
    onInvalidIntents: (slug, rejected) => invalid.push({ slug, rejected }),
    onDiagnostics: (slug, figures) => diagnosticsSeen.push({ slug, figures }),
  };
  const runner = new StrategyRunner({
    strategy,
    markets,
    books,
    position: (slug) => position({ yesRaw: slug === 'alpha' ? 5_000_000 : 0 }),
    ownOrders: options.ownOrders ?? ((slug) => (slug === 'alpha' ? [{ token: 'YES', side: 'BUY', priceTicks: 470, sizeRaw: 2_000_000 }] : [])),
    recentFills: (slug) => (slug === 'alpha' ? [fill({ priceTicks: 470, atMs: T0 - 1000 })] : []),
    gate: (slug, intents) => {
      gated.push({ slug, intents });
      return options.gate ? options.gate(slug, intents) : { intents, halt: null };
    },
    submit: (slug, intents) => {
      submits.push({ slug, intents });
      if (options.submit) return options.submit(slug, intents);
      if (!options.holdSubmissions) return Promise.resolve();
      const hold = deferred();
      held.push(hold);
      return hold.promise;
    },
    now: () => clock.now,
    requoteIntervalMs: 5_000,
    setInterval: ticker.setInterval,
    ...(options.midHistoryMs === undefined ? {} : { midHistoryMs: options.midHistoryMs }),
    ...(options.midHistoryMax === undefined ? {} : { midHistoryMax: options.midHistoryMax }),
    observer,
  });
  return { runner, books, ticker, clock, views, submits, gated, cycles, strategyErrors, cycleErrors, invalid, diagnostics: diagnosticsSeen, held };
}

/** Resolves the oldest held submission and lets the runner go on. */
async function release(h: Harness): Promise<void> {
  const next = h.held.shift();
  if (!next) throw new Error('no submission is held');
  next.resolve();
  await flush();
}

function isSettled(promise: Promise<void>): { value: boolean } {
  const state = { value: false };
  void promise.then(() => {
    state.value = true;
  });
  return state;
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});

describe('StrategyRunner: when it quotes', () => {
  it('quotes every market with a book once at start, with a complete view, and submits what the gate passed', async () => {
    const h = harness({ markets: [market({ slug: 'alpha' }), market({ slug: 'beta' })] });
    h.runner.start();
    await flush();
    expect(h.views.map((v) => v.market.slug)).toEqual(['alpha', 'beta']);
    const view = h.views[0]!;
    expect(view.now).toBe(T0);
    expect(view.yes.bestBidTicks).toBe(480);
    expect(view.no.bestBidTicks).toBe(480);
    expect(view.position.yesRaw).toBe(5_000_000);
    expect(view.recentFills).toHaveLength(1);
    expect('ownOrders' in view ? view.ownOrders : null).toEqual([{ token: 'YES', side: 'BUY', priceTicks: 470, sizeRaw: 2_000_000 }]);
    expect(view.midHistory).toEqual([{ atMs: T0, mid: 0.5 }]);
    expect(h.submits).toEqual([
      { slug: 'alpha', intents: [BID, ASK] },
      { slug: 'beta', intents: [BID, ASK] },
    ]);
    expect(h.cycles.map((c) => [c.slug, c.submitted, c.halt])).toEqual([
      ['alpha', 2, null],
      ['beta', 2, null],
    ]);
    expect(h.runner.cycles('alpha')).toBe(1);
  });

  it('leaves a market without a book alone until its first book arrives', async () => {
    const h = harness({ markets: [market({ slug: 'alpha' }), market({ slug: 'beta' })], initialBooks: { beta: null } });
    h.runner.start();
    await flush();
    expect(h.submits.map((s) => s.slug)).toEqual(['alpha']);
    h.books.change('beta', MID_50);
    await flush();
    expect(h.submits.map((s) => s.slug)).toEqual(['alpha', 'beta']);
  });

  it('requotes on each book change of that market only', async () => {
    const h = harness({ markets: [market({ slug: 'alpha' }), market({ slug: 'beta' })] });
    h.runner.start();
    await flush();
    h.books.change('beta', spec(490, 510));
    await flush();
    expect(h.views.map((v) => v.market.slug)).toEqual(['alpha', 'beta', 'beta']);
    expect(h.views[2]!.yes.bestBidTicks).toBe(490);
  });

  it('requotes every market on the periodic tick, registered once at the configured interval', async () => {
    const h = harness({ markets: [market({ slug: 'alpha' }), market({ slug: 'beta' })] });
    h.runner.start();
    h.runner.start();
    await flush();
    expect(h.ticker.calls).toBe(1);
    expect(h.ticker.ms).toBe(5_000);
    h.clock.now += 5_000;
    h.ticker.tick();
    await flush();
    expect(h.views.map((v) => [v.market.slug, v.now])).toEqual([
      ['alpha', T0],
      ['beta', T0],
      ['alpha', T0 + 5_000],
      ['beta', T0 + 5_000],
    ]);
  });

  it('ignores triggers for unknown markets and before start', async () => {
    const h = harness();
    h.runner.trigger('alpha', true);
    h.runner.trigger('nope', true);
    await flush();
    expect(h.views).toHaveLength(0);
    h.runner.start();
    await flush();
    h.runner.trigger('nope', false);
    await flush();
    expect(h.views).toHaveLength(1);
  });
});

describe('StrategyRunner: one cycle at a time per market', () => {
  it('runs exactly one follow-up cycle for any number of changes during a cycle', async () => {
    const h = harness({ holdSubmissions: true });
    h.runner.start();
    await flush();
    expect(h.views).toHaveLength(1);
    h.books.change('alpha', spec(481, 520));
    h.books.change('alpha', spec(482, 520));
    h.ticker.tick();
    h.runner.trigger('alpha', false);
    await flush();
    expect(h.views).toHaveLength(1);
    await release(h);
    expect(h.views).toHaveLength(2);
    // The follow-up sees the latest book.
    expect(h.views[1]!.yes.bestBidTicks).toBe(482);
    await release(h);
    expect(h.views).toHaveLength(2);
    expect(h.held).toHaveLength(0);
    expect(h.runner.cycles('alpha')).toBe(2);
  });

  it('runs markets independently: a slow market does not hold another back', async () => {
    const slow = deferred();
    const h = harness({
      markets: [market({ slug: 'alpha' }), market({ slug: 'beta' })],
      submit: (slug) => (slug === 'alpha' ? slow.promise : Promise.resolve()),
    });
    h.runner.start();
    await flush();
    h.books.change('beta', spec(490, 510));
    h.books.change('alpha', spec(490, 510));
    await flush();
    expect(h.views.map((v) => v.market.slug)).toEqual(['alpha', 'beta', 'beta']);
    slow.resolve();
    await flush();
    expect(h.views.map((v) => v.market.slug)).toEqual(['alpha', 'beta', 'beta', 'alpha']);
  });

  it('measures the quote latency from the first book change not yet quoted', async () => {
    const h = harness({
      holdSubmissions: true,
      quote: () => {
        h.clock.now += 7;
        return [BID];
      },
    });
    h.runner.start();
    await flush();
    expect(h.cycles[0]!.latencyMs).toBe(7);
    // Two changes while the first cycle's submission is held: the follow-up is late by the first one's age.
    h.clock.now = T0 + 1_000;
    h.books.change('alpha', spec(481, 520));
    h.clock.now = T0 + 1_010;
    h.books.change('alpha', spec(482, 520));
    h.clock.now = T0 + 1_030;
    await release(h);
    expect(h.cycles.map((c) => c.latencyMs)).toEqual([7, 37]);
    // A change with no cycle running is quoted at once: only the strategy's own time counts.
    await release(h);
    h.clock.now = T0 + 2_000;
    h.books.change('alpha', spec(483, 520));
    await flush();
    expect(h.cycles.map((c) => c.latencyMs)).toEqual([7, 37, 7]);
  });
});

describe('StrategyRunner: mid history', () => {
  it('records the YES mid on book changes (not on ticks), one point per millisecond, copied into each view', async () => {
    const h = harness();
    h.runner.start();
    await flush();
    h.clock.now = T0 + 1_000;
    h.books.change('alpha', spec(490, 530));
    await flush();
    h.books.change('alpha', spec(500, 540)); // same millisecond: replaces the point
    await flush();
    h.clock.now = T0 + 2_000;
    h.ticker.tick();
    await flush();
    h.books.change('alpha', { bids: [[480, 100]] }); // one-sided: no mid, no point
    await flush();
    const last = h.views.at(-1)!;
    expect(last.midHistory).toEqual([
      { atMs: T0, mid: 0.5 },
      { atMs: T0 + 1_000, mid: 0.52 },
    ]);
    // An earlier view kept its own copy.
    expect(h.views[0]!.midHistory).toEqual([{ atMs: T0, mid: 0.5 }]);
  });

  it('keeps at most midHistoryMax points', async () => {
    const h = harness({ midHistoryMax: 3 });
    h.runner.start();
    await flush();
    for (let i = 1; i <= 5; i += 1) {
      h.clock.now = T0 + i * 1_000;
      h.books.change('alpha', spec(480 + i, 520 + i));
      await flush();
    }
    expect(h.views.at(-1)!.midHistory.map((p) => p.atMs)).toEqual([T0 + 3_000, T0 + 4_000, T0 + 5_000]);
  });

  it('drops points older than midHistoryMs', async () => {
    const h = harness({ midHistoryMs: 10_000 });
    h.runner.start();
    await flush();
    for (const at of [5_000, 12_000, 20_000]) {
      h.clock.now = T0 + at;
      h.books.change('alpha', spec(490, 520));
      await flush();
    }
    expect(h.views.at(-1)!.midHistory.map((p) => p.atMs - T0)).toEqual([12_000, 20_000]);
  });
});

describe('StrategyRunner: mid history', () => {
  it("records the mid of the others' book: the bot's own quotes at the touch do not move it", async () => {
    const own: OwnOrderView[] = [];
    const h = harness({
      initialBooks: { alpha: { bids: [[480, 3], [470, 1]], asks: [[520, 1]] } },
      ownOrders: () => own,
    });
    h.runner.start();
    await flush();
    expect(h.views.at(-1)!.midHistory.at(-1)!.mid).toBeCloseTo(0.5, 12);
    // The bot now holds the whole 480 bid level itself: the others' touch is 470/520.
    own.push({ token: 'YES', side: 'BUY', priceTicks: 480, sizeRaw: 3_000_000 });
    h.clock.now += 1000;
    h.books.change('alpha', { bids: [[480, 3], [470, 1]], asks: [[520, 1]] });
    await flush();
    expect(h.views.at(-1)!.midHistory.at(-1)!.mid).toBeCloseTo(0.495, 12);
  });
});

describe('StrategyRunner: failures', () => {
  it('reports a strategy that throws and cancels that market (submits no intents); other markets still quote', async () => {
    const boom = new Error('boom');
    let broken = true;
    const h = harness({
      markets: [market({ slug: 'alpha' }), market({ slug: 'beta' })],
      quote: (view) => {
        if (view.market.slug === 'alpha' && broken) throw boom;
        return [BID];
      },
    });
    h.runner.start();
    await flush();
    expect(h.strategyErrors).toEqual([{ slug: 'alpha', error: boom }]);
    expect(h.gated.map((g) => g.slug)).toEqual(['beta']);
    expect(h.submits).toEqual([
      { slug: 'alpha', intents: [] },
      { slug: 'beta', intents: [BID] },
    ]);
    broken = false;
    h.books.change('alpha', spec(490, 520));
    await flush();
    expect(h.submits.map((s) => s.slug)).toEqual(['alpha', 'beta', 'alpha']);
    expect(h.submits.at(-1)!.intents).toEqual([BID]);
  });

  it('drops invalid intents with a report and still submits the valid ones', async () => {
    const h = harness({
      quote: () => [BID, { ...ASK, slot: 'Bad Slot' }, { ...ASK, slot: 'ask-1', priceTicks: 520.5 }],
    });
    h.runner.start();
    await flush();
    expect(h.invalid).toHaveLength(1);
    expect(h.invalid[0]!.slug).toBe('alpha');
    expect(h.invalid[0]!.rejected.map((r) => r.field).sort()).toEqual(['priceTicks', 'slot']);
    expect(h.gated).toEqual([{ slug: 'alpha', intents: [BID] }]);
    expect(h.submits).toEqual([{ slug: 'alpha', intents: [BID] }]);
    expect(h.cycles[0]!.submitted).toBe(1);
  });

  it('submits what the gate returns, and nothing at all (cancel) when the gate halts the market', async () => {
    let halt: string | null = null;
    const h = harness({ gate: (_slug, intents) => ({ intents: intents.filter((i) => i.side === 'BUY'), halt }) });
    h.runner.start();
    await flush();
    expect(h.submits.at(-1)!.intents).toEqual([BID]);
    halt = 'kill-switch';
    h.runner.trigger('alpha', false);
    await flush();
    expect(h.gated.at(-1)!.intents).toEqual([BID, ASK]);
    expect(h.submits.at(-1)!.intents).toEqual([]);
    expect(h.cycles.at(-1)).toMatchObject({ slug: 'alpha', submitted: 0, halt: 'kill-switch' });
  });

  it('reports diagnostics, and a diagnostics function that throws does not stop the quotes', async () => {
    let fail = false;
    const h = harness({
      diagnostics: () => {
        if (fail) throw new Error('diagnostics broke');
        return { expectedRewardPerDay: 3.5 };
      },
    });
    h.runner.start();
    await flush();
    expect(h.diagnostics).toEqual([{ slug: 'alpha', figures: { expectedRewardPerDay: 3.5 } }]);
    fail = true;
    h.runner.trigger('alpha', false);
    await flush();
    expect(h.strategyErrors.map((e) => (e.error instanceof Error ? e.error.message : ''))).toEqual(['diagnostics broke']);
    expect(h.submits).toHaveLength(2);
  });

  it('reports a gate that throws as a cycle error, never as an unhandled rejection, and keeps running', async () => {
    let gateFails = true;
    const h = harness({
      gate: (_slug, intents) => {
        if (gateFails) throw new Error('gate broke');
        return { intents, halt: null };
      },
    });
    h.runner.start();
    await flush();
    expect(h.cycleErrors.map((e) => (e.error instanceof Error ? e.error.message : ''))).toEqual(['gate broke']);
    expect(h.submits).toHaveLength(0);
    gateFails = false;
    h.runner.trigger('alpha', false);
    await flush();
    expect(h.submits).toHaveLength(1);
    expect(unhandled).toEqual([]);
  });

  it('reports a rejected submission as a cycle error and goes on with the next trigger', async () => {
    let attempt = 0;
    const h = harness({
      submit: () => {
        attempt += 1;
        return attempt === 1 ? Promise.reject(new Error('market not registered')) : Promise.resolve();
      },
    });
    const first = isSettled(h.runner.whenFirstCycleDone());
    h.runner.start();
    await flush();
    expect(h.cycleErrors.map((e) => e.slug)).toEqual(['alpha']);
    expect(first.value).toBe(false);
    h.runner.trigger('alpha', false);
    await flush();
    expect(h.submits).toHaveLength(2);
    expect(first.value).toBe(true);
    expect(unhandled).toEqual([]);
  });
});

describe('StrategyRunner: first cycle and stop', () => {
  it('resolves whenFirstCycleDone once every market with a book has completed a cycle', async () => {
    const h = harness({
      markets: [market({ slug: 'alpha' }), market({ slug: 'beta' }), market({ slug: 'gamma' })],
      initialBooks: { gamma: null },
      holdSubmissions: true,
    });
    const done = isSettled(h.runner.whenFirstCycleDone());
    h.runner.start();
    await flush();
    expect(done.value).toBe(false);
    await release(h);
    expect(done.value).toBe(false);
    await release(h);
    expect(done.value).toBe(true);
  });

  it('counts a cycle whose strategy threw as completed (start-up does not wait forever on a broken strategy)', async () => {
    const h = harness({
      quote: () => {
        throw new Error('always broken');
      },
    });
    const done = isSettled(h.runner.whenFirstCycleDone());
    h.runner.start();
    await flush();
    expect(done.value).toBe(true);
    expect(h.submits).toEqual([{ slug: 'alpha', intents: [] }]);
  });

  it('stops: no new cycle from changes, ticks or triggers; a cycle in flight finishes without its follow-up', async () => {
    const h = harness({ holdSubmissions: true });
    h.runner.start();
    await flush();
    h.books.change('alpha', spec(490, 520));
    h.runner.stop();
    expect(h.books.unsubscribed).toBe(1);
    expect(h.ticker.stopped).toBe(true);
    await release(h);
    h.books.change('alpha', spec(495, 520));
    h.ticker.fn?.();
    h.runner.trigger('alpha', true);
    await flush();
    expect(h.views).toHaveLength(1);
    expect(h.held).toHaveLength(0);
  });
});

describe('StrategyRunner: markets that come and go', () => {
  it('a market added while running is quoted once its book is there, then on its changes and every tick', async () => {
    const h = harness();
    h.runner.start();
    await flush();
    h.runner.addMarket(market({ slug: 'beta' }));
    await flush();
    // No book yet: nothing quoted; its first book quotes it.
    expect(h.submits.map((s) => s.slug)).toEqual(['alpha']);
    h.books.change('beta', MID_50);
    await flush();
    h.ticker.tick();
    await flush();
    expect(h.submits.map((s) => s.slug)).toEqual(['alpha', 'beta', 'alpha', 'beta']);
    // Adding it again changes nothing; one ticker and one book listener whatever the markets.
    h.runner.addMarket(market({ slug: 'beta' }));
    await flush();
    expect(h.submits).toHaveLength(4);
    expect([h.ticker.calls, h.runner.marketCount()]).toEqual([1, 2]);
  });

  it('a market added before start is quoted at start like the others', async () => {
    const h = harness();
    h.runner.addMarket(market({ slug: 'beta' }));
    h.books.set('beta', MID_50);
    await flush();
    expect(h.submits).toEqual([]);
    h.runner.start();
    await flush();
    expect(h.submits.map((s) => s.slug)).toEqual(['alpha', 'beta']);
  });

  it('a market removed is never quoted again: not on its book changes, not on the tick, not after a cycle in flight', async () => {
    const h = harness({ markets: [market({ slug: 'alpha' }), market({ slug: 'beta' })], holdSubmissions: true });
    h.runner.start();
    await flush();
    expect(h.submits.map((s) => s.slug)).toEqual(['alpha', 'beta']);
    // A change during beta's cycle would run one more cycle; the removal ends it instead.
    h.books.change('beta', spec(490, 510));
    h.runner.removeMarket('beta');
    await release(h);
    await release(h);
    h.books.change('beta', spec(495, 505));
    h.ticker.tick();
    await flush();
    expect(h.submits.map((s) => s.slug)).toEqual(['alpha', 'beta', 'alpha']);
    h.runner.trigger('beta', false);
    await flush();
    expect(h.submits.map((s) => s.slug)).toEqual(['alpha', 'beta', 'alpha']);
    expect(h.runner.marketCount()).toBe(1);
    expect(h.runner.cycles('beta')).toBe(0);
    expect(h.cycleErrors).toEqual([]);
  });

  it('many markets added and removed leave only the ones still traded', async () => {
    const h = harness();
    h.runner.start();
    for (let i = 0; i < 50; i += 1) {
      const slug = `m-${i}`;
      h.books.set(slug, MID_50);
      h.runner.addMarket(market({ slug }));
      await flush();
      h.runner.removeMarket(slug);
    }
    expect(h.runner.marketCount()).toBe(1);
    expect(h.submits.filter((s) => s.slug.startsWith('m-'))).toHaveLength(50);
    expect(h.ticker.calls).toBe(1);
  });
});

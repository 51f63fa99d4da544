/**
 * The strategy runner: a book change (or a periodic tick) for market M → a MarketView → `strategy.quote(view)`
 * → validation → the gate (funding + risk + halts) → the order manager's `submit(M, intents)`.
 *
 * Owns: the per-market mid history and the moment quoting happens. A market the model halts (src/pricing) has its
 * orders canceled without calling the strategy; a priced one's view carries the model's fair value. Invariants: the strategy is called with a
 * complete view only (a book, a position, the clock); a strategy that throws has that market's orders
 * canceled (never stale quotes on a moving book); invalid intents are dropped and counted, never submitted; at most one quote
 * cycle runs per market at a time (a change during a cycle triggers exactly one more afterwards); a cycle that
 * fails (the gate or the submission throws) is reported to `onCycleError` and never escapes as an unhandled
 * rejection; nothing here speaks to the venue. Markets come and go (`addMarket`, `removeMarket`): a market added
 * is quoted at once when the runner runs (and once its book is there); a market removed is never quoted again — a
 * cycle in flight ends without another — and leaves nothing behind (the book listener and the requote ticker are
 * the runner's, one each, not a market's).
 */
import type { FillView, MarketInfo, MarketViewWithOwnOrders, ModelView, OwnOrderView, PositionView, QuoteIntent, Strategy } from './contract.js';
import type { BookView } from './contract.js';
import type { AdverseSelectionView } from './adverse-selection.js';
import { validateIntents, type IntentRejection } from './validate.js';
import { buildView, DEFAULT_MID_HISTORY, recordMid, type MidPointRecord } from './view.js';
import { othersBook, touchMid, touchOf, type Touch } from './own-orders.js';

export interface RunnerBooks {
  books(slug: string): { readonly yes: BookView; readonly no: BookView } | null;
  onChange(listener: (slug: string) => void): () => void;
}

/** What the gate decided: the intents to submit (possibly none, which cancels the market's orders). */
export interface GateResult {
  readonly intents: readonly QuoteIntent[];
  /** Set when the market must not quote at all (resolved, near expiry, kill switch, stale data, not ready...). */
  readonly halt: string | null;
}

/**
 * The pricing layer's word on a market (src/pricing/market-pricer.ts): its model view, quote it from the book, or do
 * not quote it now (its resting quotes are canceled) for a reason.
 */
export type RunnerModelAnswer = { readonly kind: 'priced'; readonly view: ModelView } | { readonly kind: 'book' } | { readonly kind: 'halt'; readonly reason: string };

export interface RunnerObserver {
  onQuoteCycle?(slug: string, latencyMs: number, submitted: number, halt: string | null): void;
  /** The intents a cycle submits to the order manager (after the gate; none on a halt or a strategy error). */
  onSubmit?(slug: string, intents: readonly QuoteIntent[]): void;
  onStrategyError?(slug: string, error: unknown): void;
  /** The gate or the submission threw (the market keeps its orders; the next trigger tries again). */
  onCycleError?(slug: string, error: unknown): void;
  onInvalidIntents?(slug: string, rejected: readonly IntentRejection[]): void;
  onDiagnostics?(slug: string, figures: Readonly<Record<string, number>>): void;
}

export interface RunnerOptions {
  readonly strategy: Strategy;
  readonly markets: readonly MarketInfo[];
  readonly books: RunnerBooks;
  readonly position: (slug: string) => PositionView;
  readonly ownOrders: (slug: string) => readonly OwnOrderView[];
  readonly recentFills: (slug: string) => readonly FillView[];
  readonly gate: (slug: string, intents: readonly QuoteIntent[]) => GateResult;
  readonly submit: (slug: string, intents: readonly QuoteIntent[]) => Promise<unknown>;
  readonly now: () => number;
  /** The model's answer per market (absent: every market is quoted from its book). */
  readonly model?: (slug: string) => RunnerModelAnswer;
  /** The markouts' adverse selection of a market and its cadence (src/markouts/adverse-provider.ts); absent: none. */
  readonly adverseSelection?: (info: MarketInfo, now: number) => AdverseSelectionView | null;
  /** Each book change's touch of the OTHERS' book (the bot's own orders taken out): the pricer's ladder samples. */
  readonly onTouch?: (slug: string, touch: Touch) => void;
  /** Requote every market at least this often even without book changes (time-driven strategies, ages). */
  readonly requoteIntervalMs: number;
  readonly setInterval: (fn: () => void, ms: number) => () => void;
  /** Mid history kept per market. */
  readonly midHistoryMs?: number;
  readonly midHistoryMax?: number;
  readonly observer?: RunnerObserver;
}

interface MarketLoop {
  readonly info: MarketInfo;
  readonly mids: MidPointRecord[];
  /** Removed from the runner: a cycle in flight ends without another. */
  removed: boolean;
  running: boolean;
  again: boolean;
  changedAtMs: number | null;
  cycles: number;
}

export class StrategyRunner {
  private readonly loops = new Map<string, MarketLoop>();
  private unsubscribe: (() => void) | null = null;
  private stopTicker: (() => void) | null = null;
  private enabled = false;
  private readonly firstCycle: Promise<void>;
  private resolveFirstCycle: () => void = () => undefined;

  constructor(private readonly options: RunnerOptions) {
    for (const info of options.markets) this.loops.set(info.slug, newLoop(info));
    this.firstCycle = new Promise((resolve) => {
      this.resolveFirstCycle = resolve;
    });
  }

  /** Starts quoting: every market is quoted once now, then on each book change and every requote interval. */
  start(): void {
    if (this.enabled) return;
    this.enabled = true;
    this.unsubscribe = this.options.books.onChange((slug) => this.trigger(slug, true));
    this.stopTicker = this.options.setInterval(() => {
      for (const slug of this.loops.keys()) this.trigger(slug, false);
    }, this.options.requoteIntervalMs);
    for (const slug of this.loops.keys()) this.trigger(slug, false);
  }

  /** Stops quoting (no new cycle starts; one in flight finishes). */
  stop(): void {
    this.enabled = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.stopTicker?.();
    this.stopTicker = null;
  }

  /** Adds a market (idempotent): quoted at once when the runner runs, then on its book changes and every interval. */
  addMarket(info: MarketInfo): void {
    if (this.loops.has(info.slug)) return;
    this.loops.set(info.slug, newLoop(info));
    if (this.enabled) this.trigger(info.slug, false);
  }

  /** Removes a market: never quoted again from now on (a cycle in flight finishes its submission, no other follows). */
  removeMarket(slug: string): void {
    const loop = this.loops.get(slug);
    if (loop === undefined) return;
    loop.removed = true;
    this.loops.delete(slug);
  }

  /** The markets the runner quotes. */
  marketCount(): number {
    return this.loops.size;
  }

  /**
   * Resolves once a quote cycle has completed in every market that has a book. A cycle whose strategy threw
   * counts as completed (it decided to quote nothing new, and was reported); one whose submission failed does not.
   */
  whenFirstCycleDone(): Promise<void> {
    return this.firstCycle;
  }

  /** Requote a market now (e.g. after a fill or a risk change). */
  trigger(slug: string, bookChanged: boolean): void {
    const loop = this.loops.get(slug);
    if (!loop || !this.enabled) return;
    if (bookChanged) {
      this.recordMid(loop);
      loop.changedAtMs ??= this.options.now();
    }
    if (loop.running) {
      loop.again = true;
      return;
    }
    void this.cycle(loop);
  }

  cycles(slug: string): number {
    return this.loops.get(slug)?.cycles ?? 0;
  }

  /** Records the mid of the OTHERS' book: the bot's own quotes must not move its own volatility estimate. */
  private recordMid(loop: MarketLoop): void {
    const books = this.options.books.books(loop.info.slug);
    const touch = books ? touchOf(othersBook(books.yes, this.options.ownOrders(loop.info.slug))) : null;
    if (touch !== null) this.options.onTouch?.(loop.info.slug, touch);
    const mid = touch === null ? null : touchMid(touch);
    recordMid(loop.mids, this.options.now(), mid, {
      horizonMs: this.options.midHistoryMs ?? DEFAULT_MID_HISTORY.horizonMs,
      max: this.options.midHistoryMax ?? DEFAULT_MID_HISTORY.max,
    });
  }

  private async cycle(loop: MarketLoop): Promise<void> {
    loop.running = true;
    try {
      do {
        loop.again = false;
        try {
          if (await this.quoteOnce(loop)) this.cycleDone(loop);
        } catch (error) {
          this.options.observer?.onCycleError?.(loop.info.slug, error);
        }
      } while (loop.again && this.enabled && !loop.removed);
    } finally {
      loop.running = false;
    }
  }

  /** A cycle decided (quotes submitted, or none because the strategy failed): counts toward the first cycle. */
  private cycleDone(loop: MarketLoop): void {
    loop.cycles += 1;
    if ([...this.loops.values()].every((l) => l.cycles > 0 || this.options.books.books(l.info.slug) === null)) this.resolveFirstCycle();
  }

  /** One quote of one market; false when there was nothing to quote on (no book) or it was removed. */
  private async quoteOnce(loop: MarketLoop): Promise<boolean> {
    const slug = loop.info.slug;
    const observer = this.options.observer;
    const books = this.options.books.books(slug);
    if (!books || loop.removed) return false;
    const submit = (intents: readonly QuoteIntent[]): Promise<unknown> => {
      observer?.onSubmit?.(slug, intents);
      return this.options.submit(slug, intents);
    };
    if (loop.mids.length === 0) this.recordMid(loop);
    const started = loop.changedAtMs ?? this.options.now();
    loop.changedAtMs = null;
    const answer = this.options.model?.(slug) ?? { kind: 'book' };
    if (answer.kind === 'halt') {
      // The model says not now (no fresh underlying, a fast market, near settlement, unpriced): pull the quotes.
      const submission = submit([]);
      observer?.onQuoteCycle?.(slug, this.options.now() - started, 0, answer.reason);
      await submission;
      return true;
    }
    const now = this.options.now();
    const view: MarketViewWithOwnOrders = buildView({
      info: loop.info,
      books,
      position: this.options.position(slug),
      recentFills: this.options.recentFills(slug),
      midHistory: loop.mids,
      ownOrders: this.options.ownOrders(slug),
      now,
      model: answer.kind === 'priced' ? answer.view : null,
      adverseSelection: this.options.adverseSelection?.(loop.info, now) ?? null,
    });
    let proposed: unknown;
    try {
      proposed = this.options.strategy.quote(view);
    } catch (error) {
      // A strategy that cannot quote must not leave yesterday's quotes on a moving book: cancel this market's.
      observer?.onStrategyError?.(slug, error);
      await submit([]);
      return true;
    }
    const { valid, rejected } = validateIntents(proposed, loop.info);
    if (rejected.length > 0) observer?.onInvalidIntents?.(slug, rejected);
    if (this.options.strategy.diagnostics) {
      try {
        observer?.onDiagnostics?.(slug, this.options.strategy.diagnostics(view));
      } catch (error) {
        observer?.onStrategyError?.(slug, error);
      }
    }
    const gated = this.options.gate(slug, valid);
    const submission = submit(gated.halt === null ? gated.intents : []);
    observer?.onQuoteCycle?.(slug, this.options.now() - started, gated.halt === null ? gated.intents.length : 0, gated.halt);
    await submission;
    return true;
  }
}

function newLoop(info: MarketInfo): MarketLoop {
  return { info, mids: [], removed: false, running: false, again: false, changedAtMs: null, cycles: 0 };
}

/**
 * The strategy runner: a book change (or a periodic tick) for market M → a MarketView → `strategy.quote(view)`
 * → validation → the gate (funding + risk + halts) → the order manager's `submit(M, intents)`.
 *
 * Owns: the per-market mid history and the moment quoting happens. Invariants: the strategy is called with a
 * complete view only (a book, a position, the clock); a strategy that throws or returns invalid intents quotes
 * nothing new for that market (invalid intents are dropped and counted, never submitted); at most one quote
 * cycle runs per market at a time (a change during a cycle triggers exactly one more afterwards); nothing here
 * speaks to the venue.
 */
import type { FillView, MarketInfo, MarketViewWithOwnOrders, OwnOrderView, PositionView, QuoteIntent, Strategy } from './contract.js';
import type { BookView } from './contract.js';
import { validateIntents, type IntentRejection } from './validate.js';

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

export interface RunnerObserver {
  onQuoteCycle?(slug: string, latencyMs: number, submitted: number, halt: string | null): void;
  onStrategyError?(slug: string, error: unknown): void;
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
  readonly mids: { atMs: number; mid: number }[];
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
    for (const info of options.markets) {
      this.loops.set(info.slug, { info, mids: [], running: false, again: false, changedAtMs: null, cycles: 0 });
    }
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

  /** Resolves once a quote cycle has completed in every market that has a book (or after the first cycle at all). */
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

  private recordMid(loop: MarketLoop): void {
    const books = this.options.books.books(loop.info.slug);
    const mid = books?.yes.mid ?? null;
    if (mid === null || !Number.isFinite(mid)) return;
    const now = this.options.now();
    const last = loop.mids[loop.mids.length - 1];
    if (last && last.atMs === now) last.mid = mid;
    else loop.mids.push({ atMs: now, mid });
    const horizon = now - (this.options.midHistoryMs ?? 3_600_000);
    const max = this.options.midHistoryMax ?? 2_000;
    let drop = 0;
    while (drop < loop.mids.length && (loop.mids[drop]!.atMs < horizon || loop.mids.length - drop > max)) drop += 1;
    if (drop > 0) loop.mids.splice(0, drop);
  }

  private async cycle(loop: MarketLoop): Promise<void> {
    loop.running = true;
    try {
      do {
        loop.again = false;
        await this.quoteOnce(loop);
      } while (loop.again && this.enabled);
    } finally {
      loop.running = false;
    }
  }

  private async quoteOnce(loop: MarketLoop): Promise<void> {
    const slug = loop.info.slug;
    const observer = this.options.observer;
    const books = this.options.books.books(slug);
    if (!books) return;
    if (loop.mids.length === 0) this.recordMid(loop);
    const started = loop.changedAtMs ?? this.options.now();
    loop.changedAtMs = null;
    const view: MarketViewWithOwnOrders = {
      market: loop.info,
      yes: books.yes,
      no: books.no,
      position: this.options.position(slug),
      recentFills: this.options.recentFills(slug),
      midHistory: loop.mids.slice(),
      ownOrders: this.options.ownOrders(slug),
      now: this.options.now(),
    };
    let proposed: unknown;
    try {
      proposed = this.options.strategy.quote(view);
    } catch (error) {
      observer?.onStrategyError?.(slug, error);
      return;
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
    const submission = this.options.submit(slug, gated.halt === null ? gated.intents : []);
    observer?.onQuoteCycle?.(slug, this.options.now() - started, gated.halt === null ? gated.intents.length : 0, gated.halt);
    await submission;
    loop.cycles += 1;
    if ([...this.loops.values()].every((l) => l.cycles > 0 || this.options.books.books(l.info.slug) === null)) this.resolveFirstCycle();
  }
}

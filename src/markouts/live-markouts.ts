/**
 * The live bot's markout wiring: the sampler (src/markouts/sampler.ts) on the bot's ledger and scheduler, reading
 * each market's references from the bot's own components: the YES book without the bot's own orders (the book store
 * and the account's own-liquidity view, which counts orders that just left the book until the book shows them gone)
 * and the model's fair value (the pricer's answer, without the runner's side effects), and publishing every markout
 * it writes as a metric.
 *
 * Invariants: a stale or missing book gives no mid (the sample is `no-reference`), a market the model does not price
 * now (halted, unpriced) gives no fair value; nothing here writes but the sampler, and only through the ledger.
 */
import { basename, extname } from 'node:path';
import type { Logger } from 'pino';
import type { BookStore } from '../book/book-store.js';
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import type { LedgerStore } from '../ledger/index.js';
import { AdverseSelectionProvider, adverseOfJudged } from './adverse-provider.js';
import { MarkoutSampler } from './sampler.js';
import { fairMicros, othersMidMicros } from './value.js';
import type { Metrics } from '../metrics/index.js';
import type { OwnOrderView } from '../strategy/contract.js';
import type { BotPricing } from '../pricing/live-pricing.js';

export interface BotMarkoutsDeps {
  readonly ledger: Pick<LedgerStore, 'markouts'>;
  readonly scheduler: Scheduler;
  /** The configured strategy (a name, or a module's path: recorded by its file name). */
  readonly strategyName: string;
  readonly books: Pick<BookStore, 'books' | 'isStale'>;
  readonly ownOrders: (slug: string) => readonly OwnOrderView[];
  readonly pricing: Pick<BotPricing, 'pricer'>;
  readonly metrics: Pick<Metrics, 'fillMarkout' | 'fillMarkoutMissing'>;
  readonly log: Pick<Logger, 'warn'>;
}

/** The strategy's label in the ledger: its registered name, or a module path's file name without extension. */
export function strategyLabel(name: string): string {
  return name.includes('/') ? basename(name, extname(name)) : name;
}

/** A failing ledger write is logged at most this often (the sampler retries it every tick). */
export const MARKOUT_ERROR_LOG_EVERY_MS = 60_000;

export function buildMarkoutSampler(deps: BotMarkoutsDeps): MarkoutSampler {
  const { books, pricing, metrics, scheduler } = deps;
  let loggedAtMs = Number.NEGATIVE_INFINITY;
  return new MarkoutSampler({
    ledger: deps.ledger.markouts,
    scheduler,
    strategy: strategyLabel(deps.strategyName),
    priced: (slug) => pricing.pricer.terms(slug) !== null,
    references: (slug) => {
      const yes = books.isStale(slug) ? null : (books.books(slug)?.yes ?? null);
      const answer = pricing.pricer.answer(slug, scheduler.now());
      return {
        mid: yes === null ? null : othersMidMicros(yes, deps.ownOrders(slug)),
        model: answer.kind === 'priced' ? fairMicros(answer.view.fair) : null,
      };
    },
    observer: {
      onMarkout: (horizonMs, reference, markoutRaw) => metrics.fillMarkout(horizonMs, reference, markoutRaw),
      onMissing: (horizonMs, reference, reason) => metrics.fillMarkoutMissing(horizonMs, reference, reason),
      onError: (error) => {
        if (scheduler.now() - loggedAtMs < MARKOUT_ERROR_LOG_EVERY_MS) return;
        loggedAtMs = scheduler.now();
        deps.log.warn({ err: errorText(error) }, 'markouts: ledger write failed; retried every tick (logged once a minute)');
      },
    },
  });
}

/** How often the live bot reads its markouts again for the adverse selection, ms. */
export const ADVERSE_REFRESH_MS = 30_000;

/**
 * The strategies' adverse selection per market and cadence from the ledger's markouts (against the book mid without
 * the bot's own orders): read once now and every ADVERSE_REFRESH_MS on `every` (a timer, never from a quote: the
 * quoting path does not touch SQLite); a failing read keeps the last figures and is logged once a minute.
 */
export function buildAdverseProvider(
  ledger: Pick<LedgerStore, 'markouts'>,
  log: Pick<Logger, 'warn'>,
  clock: { readonly now: () => number; readonly every: (ms: number, fn: () => void) => unknown },
): AdverseSelectionProvider {
  let loggedAtMs = Number.NEGATIVE_INFINITY;
  let nowMs = 0;
  const provider = new AdverseSelectionProvider({
    refreshOnView: false,
    refreshMs: ADVERSE_REFRESH_MS,
    read: (sinceMs, atMs) => {
      nowMs = atMs;
      return ledger.markouts.judgedFills({ sinceMs: Math.max(0, sinceMs) }).map((fill) => adverseOfJudged(fill));
    },
    onError: (error) => {
      if (nowMs - loggedAtMs < MARKOUT_ERROR_LOG_EVERY_MS) return;
      loggedAtMs = nowMs;
      log.warn({ err: errorText(error) }, 'markouts: the adverse selection could not be read; the last figures stand (logged once a minute)');
    },
  });
  provider.refresh(clock.now());
  clock.every(ADVERSE_REFRESH_MS, () => provider.refresh(clock.now()));
  return provider;
}

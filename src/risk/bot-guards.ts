/**
 * The running bot's two guards, wired to what they halt (moved out of src/app/compose.ts, which only builds and starts
 * them): the stale guard, which halts a market whose data is not fresh (its orders canceled) and requotes it when it is
 * again, and the daily-loss kill switch, which cancels everything and pauses quoting until it is lifted.
 *
 * Owns only the reactions: the rules are src/risk/stale-guard.ts's and src/risk/kill-switch.ts's. Invariants: a halt
 * or a trip cancels through the executor (an empty plan, `haltAll`), never around it; a market waiting for its first
 * book while holding no order is routine (logged at info), any other halt is a WARN; each is counted.
 */
import type { Logger } from 'pino';
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import type { RiskConfig } from '../config/types.js';
import { KillSwitch } from './kill-switch.js';
import { StaleGuard } from './stale-guard.js';

export interface BotGuardParts {
  readonly scheduler: Scheduler;
  readonly risk: Pick<RiskConfig, 'staleGraceMs' | 'socketDownGraceMs' | 'dailyLossLimitRaw'>;
  readonly log: Logger;
  readonly metrics: { riskBlocked(market: string, reason: string): void; killSwitch(engaged: boolean, reason?: string): void };
  readonly executor: { openOrders(slug: string): readonly unknown[]; submit(slug: string, intents: readonly never[]): Promise<unknown>; haltAll(): Promise<unknown> };
  readonly hasBook: (slug: string) => boolean;
  readonly requote: (slug: string) => void;
  readonly marketSlugs: () => readonly string[];
  /** Where the last reason a market was kept from quoting is kept, for the status line. */
  readonly blockedReasons: Map<string, string>;
  readonly dailyPnlRaw: (dayStartMs: number) => number;
  readonly killSwitchCheckIntervalMs?: number;
}

export function buildStaleGuard(parts: BotGuardParts): StaleGuard {
  const { log, metrics, executor } = parts;
  return new StaleGuard({
    scheduler: parts.scheduler,
    staleGraceMs: parts.risk.staleGraceMs,
    socketDownGraceMs: parts.risk.socketDownGraceMs,
    onHalt: (slug, reason) => {
      parts.blockedReasons.set(slug, `halted: ${reason}`);
      // A market whose first book has not come yet (it waits behind the start-up requests), holding no order: routine.
      if (reason === 'stale-book' && !parts.hasBook(slug) && executor.openOrders(slug).length === 0) log.info({ market: slug, reason }, 'market waiting for its first book; not quoted until it comes');
      else log.warn({ market: slug, reason }, 'market halted: data not fresh; canceling its orders');
      metrics.riskBlocked(slug, reason);
      void executor.submit(slug, []);
    },
    onResume: (slug) => {
      log.info({ market: slug }, 'market data fresh again; quoting resumes');
      parts.requote(slug);
    },
  });
}

export function buildKillSwitch(parts: BotGuardParts): KillSwitch {
  const { log, metrics } = parts;
  return new KillSwitch({
    scheduler: parts.scheduler,
    ...(parts.killSwitchCheckIntervalMs === undefined ? {} : { checkIntervalMs: parts.killSwitchCheckIntervalMs }),
    dailyLossLimitRaw: parts.risk.dailyLossLimitRaw,
    dailyPnlRaw: parts.dailyPnlRaw,
    onPnlError: (error) => log.warn({ err: errorText(error) }, 'kill switch: daily PnL unavailable'),
    onTrip: (trip) => {
      log.error({ trip }, 'kill switch engaged: canceling everything, quoting paused');
      metrics.killSwitch(true, trip.reason);
      void parts.executor.haltAll();
    },
    onResume: () => {
      log.warn('kill switch lifted: quoting resumes');
      metrics.killSwitch(false);
      for (const slug of parts.marketSlugs()) parts.requote(slug);
    },
  });
}

/**
 * The roster: joins and leaves markets while the bot runs, in one stated order per market, one change at a time.
 *
 * Join (a market the selection wants): `register` (local state only: signing terms, ledger tokens, pricing, the traded
 * set, the book subscription — the whole list is sent again — and the stale guard), then `adopt` (the executor lists
 * the bot's own live orders there and adopts them; the runner quotes it once its book is there). Nothing is quoted in a
 * market before its adoption finished.
 * Leave (a market the selection no longer wants, or one at its stop before settlement): `drain` (the runner stops
 * quoting it, its orders are canceled and confirmed gone), then `unregister` (unsubscribed, untracked, its metric
 * series removed; the market stays departed in the traded set until it resolves and settles).
 *
 * Owns: the joined set and the order of changes. Invariants: the changes of one market run one at a time, in the order
 * of the plans (a market is never joined and left at once); different markets change side by side (a new hourly ladder
 * joins at once, not one market after another); a failed join is rolled back (left) and retried by a later plan;
 * after `stop()` no change starts and `stop` resolves once every running change ended.
 */
import type { Logger } from 'pino';
import { errorText } from '../core/errors.js';
import type { Market } from '../exchange/wire.js';

export interface RosterSteps {
  /** Local registration of a joining market (no venue request). */
  register(market: Market): void;
  /** Adoption of own live orders, then quoting (resolves once adopted). */
  adopt(market: Market): Promise<{ readonly adopted: number; readonly canceled: number; readonly ok: boolean }>;
  /** Quoting stopped, orders canceled and confirmed (within the steps' budget). */
  drain(slug: string): Promise<{ readonly clean: boolean }>;
  /** Local state of a left market released (subscription, guard, series). */
  unregister(slug: string): void;
}

export interface RosterPlan {
  readonly join: readonly Market[];
  readonly leave: readonly { readonly slug: string; readonly reason: string }[];
}

export class MarketRoster {
  private readonly joined = new Set<string>();
  /** Per market, the tail of its changes (dropped once idle). */
  private readonly chains = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly steps: RosterSteps,
    private readonly log: Logger,
    initial: readonly string[] = [],
  ) {
    for (const slug of initial) this.joined.add(slug);
  }

  /** Markets joined (or joining). */
  current(): ReadonlySet<string> {
    return this.joined;
  }

  /** Applies `plan`, each market's change after that market's earlier ones; resolves when all of them are done. */
  apply(plan: RosterPlan): Promise<void> {
    const changes = [
      ...plan.leave.map((l) => this.enqueue(l.slug, () => (this.joined.has(l.slug) ? this.leave(l.slug, l.reason) : Promise.resolve()))),
      ...plan.join.map((m) => this.enqueue(m.slug, () => (this.joined.has(m.slug) ? Promise.resolve() : this.join(m)))),
    ];
    return Promise.all(changes).then(() => undefined);
  }

  /** No change starts after this; resolves once every running one ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.chains.values()]);
  }

  private enqueue(slug: string, change: () => Promise<void>): Promise<void> {
    const previous = this.chains.get(slug) ?? Promise.resolve();
    const run = previous.then(() => (this.stopped ? undefined : change())).catch(() => undefined);
    this.chains.set(slug, run);
    void run.then(() => {
      if (this.chains.get(slug) === run) this.chains.delete(slug);
    });
    return run;
  }

  private async join(market: Market): Promise<void> {
    const slug = market.slug;
    this.joined.add(slug);
    try {
      this.steps.register(market);
      const report = await this.steps.adopt(market);
      if (!report.ok) throw new Error('adoption of live orders failed');
      this.log.info({ market: slug, settlesAt: market.expirationMs === null ? null : new Date(market.expirationMs).toISOString(), adopted: report.adopted, canceled: report.canceled }, 'market joined');
    } catch (error) {
      this.log.warn({ market: slug, err: errorText(error) }, 'joining a market failed: left again, retried at the next evaluation');
      await this.leave(slug, 'join failed');
    }
  }

  private async leave(slug: string, reason: string): Promise<void> {
    try {
      const { clean } = await this.steps.drain(slug);
      this.steps.unregister(slug);
      this.joined.delete(slug);
      this.log[clean ? 'info' : 'warn']({ market: slug, reason, clean }, clean ? 'market left' : 'market left with orders not confirmed canceled (looked up until they are)');
    } catch (error) {
      this.log.error({ market: slug, reason, err: errorText(error) }, 'leaving a market failed: still joined, retried at the next evaluation');
    }
  }
}

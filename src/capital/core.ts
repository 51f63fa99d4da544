/**
 * The capital core: brings back the capital a market's tokens hold, for the bot and the backtest alike. On each tick
 * (an interval on the injected scheduler, and `poke()` after a resolution or a fill) it
 *   1. recovers the journaled transactions whose answer was lost (by hash, through the port): booked if confirmed,
 *      closed if reverted or unknown to the chain, left pending while the chain has no verdict;
 *   2. asks the pure rules (./rules.ts) for the first market that needs a redemption or a merge, and sends ONE
 *      transaction through the port (one at a time per wallet), journaled before the port returns;
 *   3. books a confirmed outcome once (the book's key), and otherwise backs the market off (a payout not posted yet,
 *      a revert) or the whole wallet (too little gas, gas price above the ceiling, a port error: wrong RPC URL,
 *      wrong chain id), with the doubling delay the API settler uses (src/capital/settlement-rules.ts `retryDelayMs`).
 * A periodic chain check (`checkEveryMs`) reads the wallet's USDC (reported to the observer: the capital by state's
 * free USDC; held against the ledger's cash account by `usdcCheck`, ./cash-check.ts) and compares the ledger's holdings with the port's balances: a difference is
 * logged with both figures and counted; the same difference seen on two consecutive checks is handed to `repair`
 * (the bot repairs it as a REST difference, src/ledger/reconcile.ts).
 *
 * Owns: the tick timer, the back-offs, the in-flight flag. Invariants: never two transactions in flight; nothing
 * booked unless the port says confirmed; a journaled key is never sent again (it is recovered); a failure never
 * throws out of a tick (quoting goes on); nothing runs after `stop()`.
 */
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import { retryDelayMs } from './settlement-rules.js';
import type { CapitalBook, PendingCapitalTx } from './book.js';
import type { UsdcVerdictKind } from './cash-check.js';
import type { CapitalPort, CapitalTxOutcome, CapitalTxRequest } from './port.js';
import { capitalTxKey, differenceKey, gasUsdcRaw, holdingDifferences, nextAction, type HoldingDifference, type MarketCapitalState, type MergeSettings } from './rules.js';

export interface CapitalSettings {
  readonly merge: MergeSettings;
  /** How often the core looks for work (ms). */
  readonly intervalMs: number;
  /** How often the ledger's holdings are checked against the chain (ms); 0: never. */
  readonly checkEveryMs: number;
  readonly retry: { readonly initialMs: number; readonly maxMs: number };
  /** Raw USDC per ETH: the gas's USDC figure in the books. */
  readonly ethPriceUsdcRaw: number;
}

export type CapitalResult = 'redeemed' | 'merged' | 'not-ready' | 'reverted' | 'insufficient-gas' | 'gas-price-too-high' | 'error' | 'recovered' | 'dropped';

export interface CapitalObserver {
  onResult?(kind: 'redeem' | 'merge', result: CapitalResult): void;
  /** A confirmed transaction booked (once). */
  onBooked?(kind: 'redeem' | 'merge', usdcInRaw: number, gasUsdcRaw: number): void;
  /** Too little gas: the wallet and what it needs. */
  onInsufficientGas?(wallet: string, needWei: string, haveWei: string): void;
  onChainDifferences?(count: number): void;
  /** The chain check read the wallet's USDC (raw) at `atMs`. */
  onChainUsdc?(usdcRaw: number, atMs: number): void;
  /** The wallet's USDC held against the ledger's cash account (./cash-check.ts): the verdict's kind and difference. */
  onChainUsdcVerdict?(kind: UsdcVerdictKind, differenceRaw: number | null): void;
}

/** pino-compatible subset. */
export interface CapitalLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface CapitalCoreOptions {
  readonly port: CapitalPort;
  readonly book: CapitalBook;
  /** The markets to look after now (traded and held), in priority order. */
  readonly markets: () => readonly MarketCapitalState[];
  readonly scheduler: Scheduler;
  readonly log: CapitalLog;
  readonly settings: CapitalSettings;
  readonly observer?: CapitalObserver;
  /** Differences seen on two consecutive chain checks: repair them (the bot: as a REST difference). */
  readonly repair?: (differences: readonly HoldingDifference[]) => void;
  /** The wallet's USDC held against the ledger's cash account (./cash-check.ts): `begin` before the read, `check` after. */
  readonly usdcCheck?: { begin(): number; check(usdcRaw: number, begunAtMs: number): unknown };
}

interface Backoff {
  attempt: number;
  untilMs: number;
}

export class CapitalCore {
  private readonly backoffs = new Map<string, Backoff>();
  private walletBackoff: Backoff = { attempt: 0, untilMs: 0 };
  private running = false;
  private stopped = false;
  private cancelTick: (() => void) | null = null;
  private lastCheckMs = Number.NEGATIVE_INFINITY;
  private seenDifferences = new Set<string>();

  constructor(private readonly o: CapitalCoreOptions) {}

  start(): void {
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.cancelTick?.();
    this.cancelTick = null;
  }

  /** Look for work now (a market resolved, a fill changed the holdings). */
  poke(): void {
    void this.tick();
  }

  /** One pass: recover, then at most one transaction, then the chain check when due. Never throws. */
  async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      const recovering = await this.recover();
      if (!recovering) await this.act();
      await this.checkChain();
    } catch (error) {
      this.o.log.error({ err: errorText(error) }, 'capital: the pass failed (quoting goes on)');
    } finally {
      this.running = false;
    }
  }

  private arm(): void {
    if (this.stopped) return;
    this.cancelTick = this.o.scheduler.schedule(this.o.settings.intervalMs, () => {
      this.cancelTick = null;
      void this.tick().finally(() => this.arm());
    });
  }

  /** True while a journaled transaction still has no verdict (nothing new is sent behind it). */
  private async recover(): Promise<boolean> {
    const pending = this.o.book.pendingCapitalTx();
    for (const tx of pending) {
      const request: CapitalTxRequest = { kind: tx.kind, market: tx.market, amountRaw: tx.amountRaw, key: tx.key };
      let outcome: CapitalTxOutcome | 'unknown';
      try {
        outcome = await this.o.port.recover(request, { hash: tx.hash, nonce: tx.nonce });
      } catch (error) {
        this.o.log.warn({ key: tx.key, hash: tx.hash, err: errorText(error) }, 'capital: cannot read a journaled transaction back yet; nothing new is sent before it is');
        this.o.observer?.onResult?.(tx.kind, 'error');
        return true;
      }
      if (outcome === 'unknown') {
        this.o.book.closeCapitalTx(tx.key, 'dropped', 'the chain has no trace of the transaction', this.now());
        this.o.log.warn({ key: tx.key, hash: tx.hash }, 'capital: a journaled transaction is unknown to the chain (dropped); nothing booked, the market is looked at again');
        this.o.observer?.onResult?.(tx.kind, 'dropped');
        continue;
      }
      if (outcome.status === 'confirmed' || outcome.status === 'reverted') {
        this.o.log.info({ key: tx.key, hash: tx.hash, status: outcome.status }, 'capital: a journaled transaction found again by its hash');
        this.o.observer?.onResult?.(tx.kind, 'recovered');
        this.settle(request, outcome);
        continue;
      }
      return true; // still in flight on the chain
    }
    return false;
  }

  private async act(): Promise<void> {
    const now = this.now();
    if (this.walletBackoff.untilMs > now) return;
    const states = this.o.markets();
    const action = nextAction(states, this.o.settings.merge, now, (slug) => (this.backoffs.get(slug)?.untilMs ?? 0) > now);
    if (action === null) return;
    const market = states.find((s) => s.market.slug === action.slug)?.market;
    if (market === undefined) return;
    const key = capitalTxKey(action.kind, action.slug, this.o.book.capitalTxCount(action.slug, action.kind));
    const request: CapitalTxRequest = { kind: action.kind, market, amountRaw: action.kind === 'merge' ? action.setsRaw : action.expectedRaw, key };
    let outcome: CapitalTxOutcome;
    try {
      outcome = await this.o.port.submit(request, {
        broadcast: (journalKey, tx) => this.o.book.journalCapitalTx({ ...request, key: journalKey }, tx, this.now()),
      });
    } catch (error) {
      // A port error (wrong RPC URL, wrong chain id, a missing approval found before sending...): nothing booked.
      this.o.log.warn({ market: action.slug, kind: action.kind, key, err: errorText(error) }, `capital: the ${action.kind} could not be sent; nothing booked, quoting goes on`);
      this.o.observer?.onResult?.(action.kind, 'error');
      this.backOffWallet();
      return;
    }
    this.settle(request, outcome);
  }

  private settle(request: CapitalTxRequest, outcome: CapitalTxOutcome): void {
    const { log, observer } = this.o;
    const slug = request.market.slug;
    switch (outcome.status) {
      case 'confirmed': {
        const gasUsdc = gasUsdcRaw(outcome.gasWei, this.o.settings.ethPriceUsdcRaw);
        const booked = this.o.book.bookCapitalTx({
          key: request.key,
          kind: request.kind,
          marketSlug: slug,
          hash: outcome.hash,
          block: outcome.block,
          usdcInRaw: outcome.usdcInRaw,
          yesBurnedRaw: outcome.yesBurnedRaw,
          noBurnedRaw: outcome.noBurnedRaw,
          gasWei: outcome.gasWei,
          gasUsdcRaw: gasUsdc,
          atMs: this.now(),
        });
        this.backoffs.delete(slug);
        this.walletBackoff = { attempt: 0, untilMs: 0 };
        if (booked === 'inserted') {
          observer?.onResult?.(request.kind, request.kind === 'redeem' ? 'redeemed' : 'merged');
          observer?.onBooked?.(request.kind, outcome.usdcInRaw, gasUsdc);
          log.info({ market: slug, kind: request.kind, hash: outcome.hash, block: outcome.block, usdcInRaw: outcome.usdcInRaw, yesBurnedRaw: outcome.yesBurnedRaw, noBurnedRaw: outcome.noBurnedRaw, gasWei: outcome.gasWei }, request.kind === 'redeem' ? 'redeemed on-chain' : 'complete sets merged');
        }
        return;
      }
      case 'reverted':
        this.o.book.closeCapitalTx(request.key, 'reverted', outcome.reason, this.now());
        log.warn({ market: slug, kind: request.kind, hash: outcome.hash, block: outcome.block, reason: outcome.reason }, `capital: the ${request.kind} transaction reverted; nothing booked`);
        observer?.onResult?.(request.kind, 'reverted');
        this.backOff(slug);
        return;
      case 'not-ready': {
        const first = (this.backoffs.get(slug)?.attempt ?? 0) === 0;
        log[first ? 'info' : 'debug']({ market: slug, kind: request.kind, reason: outcome.reason }, 'capital: not possible yet (payout not posted); will retry');
        observer?.onResult?.(request.kind, 'not-ready');
        this.backOff(slug);
        return;
      }
      case 'insufficient-gas':
        log.warn({ wallet: outcome.wallet, needWei: outcome.needWei, haveWei: outcome.haveWei, market: slug, kind: request.kind }, `capital: wallet ${outcome.wallet} has too little ETH for gas (needs ${outcome.needWei} wei, has ${outcome.haveWei}): fund it; quoting goes on`);
        observer?.onResult?.(request.kind, 'insufficient-gas');
        observer?.onInsufficientGas?.(outcome.wallet, outcome.needWei, outcome.haveWei);
        this.backOffWallet();
        return;
      case 'gas-price-too-high':
        log.info({ gasPriceWei: outcome.gasPriceWei, ceilingWei: outcome.ceilingWei, market: slug }, 'capital: gas price above the ceiling; will retry');
        observer?.onResult?.(request.kind, 'gas-price-too-high');
        this.backOffWallet();
        return;
    }
  }

  private async checkChain(): Promise<void> {
    const every = this.o.settings.checkEveryMs;
    const now = this.now();
    if (every <= 0 || now - this.lastCheckMs < every) return;
    this.lastCheckMs = now;
    const states = this.o.markets().filter((s) => !s.redeemed);
    const ids = states.flatMap((s) => [s.market.yesTokenId, s.market.noTokenId]);
    const begunAtMs = this.o.usdcCheck?.begin() ?? now;
    let chain;
    try {
      chain = await this.o.port.balances(ids);
    } catch (error) {
      this.o.log.warn({ err: errorText(error) }, 'capital: the chain check could not read the balances');
      return;
    }
    this.o.observer?.onChainUsdc?.(chain.usdcRaw, now);
    this.o.usdcCheck?.check(chain.usdcRaw, begunAtMs);
    // Holdings may have moved while the balances were read: compare with the ledger as it is now.
    const differences = holdingDifferences(this.o.markets(), chain.tokens);
    this.o.observer?.onChainDifferences?.(differences.length);
    const seen = new Set(differences.map(differenceKey));
    const repeated = differences.filter((d) => this.seenDifferences.has(differenceKey(d)));
    for (const d of differences) this.o.log.warn({ market: d.slug, token: d.token, ledgerRaw: d.ledgerRaw, chainRaw: d.chainRaw }, 'capital: the ledger\'s holding differs from the chain');
    this.seenDifferences = seen;
    if (repeated.length > 0) this.o.repair?.(repeated);
  }

  private backOff(slug: string): void {
    const attempt = (this.backoffs.get(slug)?.attempt ?? 0) + 1;
    const { initialMs, maxMs } = this.o.settings.retry;
    this.backoffs.set(slug, { attempt, untilMs: this.now() + retryDelayMs(attempt, initialMs, maxMs) });
  }

  private backOffWallet(): void {
    const attempt = this.walletBackoff.attempt + 1;
    const { initialMs, maxMs } = this.o.settings.retry;
    this.walletBackoff = { attempt, untilMs: this.now() + retryDelayMs(attempt, initialMs, maxMs) };
  }

  private now(): number {
    return this.o.scheduler.now();
  }
}

export type { PendingCapitalTx };

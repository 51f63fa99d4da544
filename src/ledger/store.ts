/**
 * The ledger: the bot's source of truth for orders it placed, fills, positions and PnL, in one SQLite
 * file. This module is the facade the rest of the bot calls; each table group lives in its own repo.
 *
 * Invariants: every fill the venue reports is stored exactly once (see fills-repo); positions always
 * equal the replay of the fills (see positions-repo; `verify()` checks it); every write is one
 * transaction, and `atomically(fn)` groups several calls (e.g. the raw event and the fill it carries)
 * into one. Bad input throws a typed error and writes nothing.
 */
import { HistoryRepo } from './history-repo.js';
import type { Database } from 'better-sqlite3';
import type { Outcome } from '../core/venue-rules/index.js';
import type { FillView, PositionView } from '../strategy/contract.js';
import { LedgerContext, type WriteDurability } from './context.js';
import { openLedgerDatabase, type SynchronousMode } from './database.js';
import { EventsRepo } from './events-repo.js';
import { FillsRepo, type AdjustmentInput, type SyntheticFillInput } from './fills-repo.js';
import { KvRepo } from './kv-repo.js';
import { MarkoutsRepo } from './markouts-repo.js';
import { CalibrationRepo } from './calibration-repo.js';
import { CashRepo } from './cash-repo.js';
import { MarketRepo, type MarkInput, type MarkOutcome, type RedemptionDetails, type RedemptionOutcome } from './market-repo.js';
import { OrdersRepo, type OrderRecordOutcome, type OrderUpdateOutcome } from './orders-repo.js';
import { EMPTY_TOKEN, marketPnl, type DailyPnl, type MarketState, type TokenTotals } from './pnl.js';
import { averageCost, mergeLegCollateral } from './position-math.js';
import { CapitalRepo } from './capital-repo.js';
import type { CapitalBook, CapitalCloseStatus, ConfirmedCapitalTx, PendingCapitalTx } from '../capital/book.js';
import type { CapitalMarketRef, CapitalTxKind, Hex } from '../capital/port.js';
import { PositionsRepo } from './positions-repo.js';
import { dailyPnlReport, marketStateOf, pnlReport, type PnlQuery, type PnlReport, type PnlSources } from './pnl-queries.js';
import { diffPositionBook, type BookMarket, type PositionBook } from './position-book.js';
import { RewardsRepo } from './rewards-repo.js';
import { PayoutsRepo } from './payouts-repo.js';
import { RebateResolutionRepo } from './rebate-resolution-repo.js';
import { z } from 'zod';
import type {
  FailOutcome,
  FillInput,
  FillKey,
  FillOutcome,
  FillRecord,
  LedgerObserver,
  LedgerOrder,
  Mark,
  OrderInput,
  OrderRef,
  OrderUpdate,
  Resolution,
  ResolutionInput,
  ResolutionOutcome,
} from './types.js';
import { checkId, checkReason, checkTimeMs, normaliseFillKey } from './validate.js';
import { WalSync } from './wal-sync.js';

export interface LedgerOptions {
  /** Database file; parent directories are created. ':memory:' for tests. */
  readonly path: string;
  /** Default FULL (see database.ts for why). */
  readonly synchronous?: SynchronousMode;
  /** Injected clock for recorded/updated times; default Date.now. */
  readonly now?: () => number;
  readonly observer?: LedgerObserver;
  /** Refuse to create a missing file. */
  readonly mustExist?: boolean;
}

export function openLedger(options: LedgerOptions): LedgerStore {
  const db = openLedgerDatabase({
    path: options.path,
    ...(options.synchronous ? { synchronous: options.synchronous } : {}),
    ...(options.mustExist ? { mustExist: true } : {}),
  });
  return new LedgerStore(db, options);
}

/** What a restart must catch up on from REST before quoting. */
export interface CatchUp {
  /** Orders the ledger last knew as live, pending or unknown. */
  readonly orders: readonly LedgerOrder[];
  /** Fills still provisional (MATCHED, not yet MINED or FAILED). */
  readonly provisionalFills: readonly FillRecord[];
}

/** The ledger's holding of one token, as reconciliation compares it with the venue. */
export interface LedgerTokenBalance {
  readonly marketSlug: string;
  readonly token: Outcome;
  /** Tokens held per the ledger (0 once the market was redeemed). */
  readonly balanceRaw: number;
  /** Signed size of provisional fills inside balanceRaw. */
  readonly pendingRaw: number;
}

export type { MarketReportRow, PnlQuery, PnlReport } from './pnl-queries.js';

/** What the periodic comparison of the position book with the ledger found (src/ledger/position-book.ts). */
export interface PositionBookCheck {
  /** One line per difference (empty: the book equals the ledger). */
  readonly differences: readonly string[];
  /** Whether the book was reloaded from the ledger (it is, on any difference). */
  readonly repaired: boolean;
  /** How long the comparison took, ms (main thread). */
  readonly ms: number;
}

const slugRowSchema = z.object({ market_slug: z.string() });
const countsRowSchema = z.object({ fills: z.number().int(), events: z.number().int(), orders: z.number().int() });

export class LedgerStore implements CapitalBook {
  private readonly ctx: LedgerContext;
  /** On-chain redemptions and merges (src/ledger/capital-repo.ts, written by src/capital/core.ts). */
  readonly capital: CapitalRepo;
  /** The USDC flows the ledger booked: its figure of the wallet's USDC (src/ledger/cash-repo.ts). */
  readonly cash: CashRepo;
  private readonly orders: OrdersRepo;
  private readonly events: EventsRepo;
  private readonly positions: PositionsRepo;
  private readonly fills: FillsRepo;
  private readonly market: MarketRepo;
  private readonly pnlSources: PnlSources;
  private readonly kv: KvRepo;
  /** Markouts of the fills the live bot judges (src/ledger/markouts-repo.ts, written by src/markouts/sampler.ts). */
  readonly markouts: MarkoutsRepo;
  /** Estimated rewards and rebates, and the venue's own figures (src/ledger/rewards-repo.ts). */
  readonly rewards: RewardsRepo;
  /** What the venue paid per epoch, and the estimate rows a reconciliation reads (src/ledger/payouts-repo.ts). */
  readonly payouts: PayoutsRepo;
  /** The account's history as the venue lists it: outside cash flows (migration 8). */
  readonly history: HistoryRepo;
  /** Maker rebate estimates resolved from the public trade feed (src/ledger/rebate-resolution-repo.ts). */
  readonly rebateResolution: RebateResolutionRepo;
  /** Model vs book-mid predictions before settlement and their scores (src/ledger/calibration-repo.ts, written by src/calibration/). */
  readonly calibration: CalibrationRepo;
  private readonly marketSlugs;
  private readonly walSync: WalSync | null;
  private readonly recentFillRows;
  private readonly countRows;

  constructor(
    readonly db: Database,
    options: { readonly now?: () => number; readonly observer?: LedgerObserver } = {},
  ) {
    this.ctx = new LedgerContext(db, options.now ?? Date.now, options.observer ?? {});
    this.orders = new OrdersRepo(this.ctx);
    this.events = new EventsRepo(this.ctx);
    this.positions = new PositionsRepo(this.ctx);
    this.fills = new FillsRepo(this.ctx, this.positions);
    this.market = new MarketRepo(this.ctx);
    this.pnlSources = { market: this.market, positions: this.positions, fills: this.fills, markets: () => this.markets() };
    this.kv = new KvRepo(this.ctx);
    this.markouts = new MarkoutsRepo(this.ctx, this.kv);
    this.rewards = new RewardsRepo(this.ctx);
    this.payouts = new PayoutsRepo(this.ctx);
    this.history = new HistoryRepo(this.ctx);
    this.rebateResolution = new RebateResolutionRepo(this.ctx);
    this.calibration = new CalibrationRepo(this.ctx);
    this.capital = new CapitalRepo(this.ctx);
    this.cash = new CashRepo(this.ctx);
    this.walSync = db.memory || db.pragma('synchronous', { simple: true }) !== 2 ? null : new WalSync(db.name);
    const walSync = this.walSync;
    this.syncToDisk = walSync === null ? null : () => walSync.sync();
    this.marketSlugs = db.prepare(
      `SELECT market_slug FROM positions UNION SELECT market_slug FROM resolutions
       UNION SELECT market_slug FROM redemptions ORDER BY market_slug`,
    );
    this.recentFillRows = db.prepare(
      `SELECT token, side, price_ticks, size_raw, at_ms FROM fills
        WHERE market_slug = ? AND at_ms >= ? AND kind = 'trade' AND state != 'failed' ORDER BY at_ms, id`,
    );
    this.countRows = db.prepare(
      `SELECT (SELECT COUNT(*) FROM fills) AS fills, (SELECT COUNT(*) FROM order_events) AS events,
              (SELECT COUNT(*) FROM orders) AS orders`,
    );
    this.ctx.book.load(this.bookFromLedger());
  }

  /**
   * The account's holdings in memory (src/ledger/position-book.ts): loaded from the ledger when it opened, updated by
   * every booking once its transaction commits. What the quoting path reads (never SQLite).
   */
  get positionBook(): PositionBook {
    return this.ctx.book;
  }

  /** Milliseconds this process spent in SQLite on the ledger's connection (writes whole, reads per statement). */
  sqliteMs(): number {
    return this.ctx.sqliteMs();
  }

  /** SQLite calls on the ledger's connection so far (write transactions, and statements outside them). */
  sqliteCalls(): number {
    return this.ctx.sqliteCallCount();
  }

  /**
   * Compares the position book with the ledger (its positions, redemptions and the held tokens' ids) and, on any
   * difference, reloads it from the ledger. O(markets) reads: run it on a timer, never on the quoting path.
   */
  checkPositionBook(): PositionBookCheck {
    const started = performance.now();
    const truth = this.bookFromLedger();
    const differences = diffPositionBook(this.ctx.book.snapshot(), truth);
    if (differences.length > 0) this.ctx.book.load(truth);
    return { differences, repaired: differences.length > 0, ms: performance.now() - started };
  }

  /** The book's content as the ledger holds it: every positions row, the redemptions, the held tokens' ids. */
  private bookFromLedger(): Map<string, BookMarket> {
    const redeemed = this.market.redeemed();
    const markets = new Map<string, { yes: TokenTotals; no: TokenTotals }>();
    for (const { marketSlug, token, totals } of this.positions.all()) {
      const entry = markets.get(marketSlug) ?? { yes: EMPTY_TOKEN, no: EMPTY_TOKEN };
      if (token === 'YES') entry.yes = totals;
      else entry.no = totals;
      markets.set(marketSlug, entry);
    }
    for (const slug of redeemed.keys()) if (!markets.has(slug)) markets.set(slug, { yes: EMPTY_TOKEN, no: EMPTY_TOKEN });
    const out = new Map<string, BookMarket>();
    for (const [slug, { yes, no }] of markets) {
      const isRedeemed = redeemed.has(slug);
      const held = !isRedeemed && (yes.positionRaw !== 0 || no.positionRaw !== 0);
      const tokenIds = held ? { YES: this.fills.tokenIdFor(slug, 'YES'), NO: this.fills.tokenIdFor(slug, 'NO') } : { YES: null, NO: null };
      out.set(slug, { yes, no, redeemed: isRedeemed, tokenIds });
    }
    return out;
  }

  close(): void {
    if (this.db.open) {
      this.ctx.restoreLevel();
      this.db.close();
    }
    // Closes the log's descriptor once a sync in flight ends; a failure to close it changes nothing the ledger holds.
    void this.walSync?.close().catch(() => undefined);
  }

  /**
   * Resolves once every commit made so far is on the disk (against a power cut too), without the main thread waiting
   * for the fsync (src/ledger/wal-sync.ts). Null when there is nothing to fsync: an in-memory ledger, or a connection
   * opened synchronous=NORMAL (backtests), whose commits are never made power-durable.
   */
  readonly syncToDisk: (() => Promise<void>) | null;

  /**
   * Runs several ledger calls as one transaction: all or nothing. `durability` 'process' only for calls that are all
   * process-durable (src/ledger/context.ts PROCESS_DURABLE_OPERATIONS: order rows, estimates): default 'full'.
   */
  atomically<T>(fn: () => T, durability: WriteDurability = 'full'): T {
    return this.ctx.write('atomically', fn, durability);
  }

  // Orders ---------------------------------------------------------------------------------------

  recordOrder(input: OrderInput): OrderRecordOutcome {
    return this.orders.record(input);
  }

  updateOrder(ref: OrderRef, update: OrderUpdate): OrderUpdateOutcome {
    return this.orders.updateOrder(ref, update);
  }

  getOrder(ref: OrderRef): LedgerOrder | null {
    return this.orders.find(ref);
  }

  openOrders(): LedgerOrder[] {
    return this.orders.openOrders();
  }

  /** Orders updated at or after `sinceMs` plus every open one: the status-batch input of reconciliation. */
  recentlyActiveOrders(sinceMs: number): LedgerOrder[] {
    return this.orders.recentlyActive(checkTimeMs('sinceMs', sinceMs));
  }

  pendingCatchUp(): CatchUp {
    return { orders: this.orders.openOrders(), provisionalFills: this.fills.provisional() };
  }

  // Raw events -------------------------------------------------------------------------------------

  /** Stores a raw event once; true when new. Group it with the fill it carries via `atomically`. */
  recordEvent(eventId: string, kind: string, payload: unknown, receivedAtMs?: number): boolean {
    return this.events.record(eventId, kind, payload, receivedAtMs);
  }

  hasEvent(eventId: string): boolean {
    return this.events.has(eventId);
  }

  // Fills ----------------------------------------------------------------------------------------

  recordFill(input: FillInput): FillOutcome {
    return this.fills.record(input);
  }

  recordFills(inputs: readonly FillInput[]): FillOutcome[] {
    return this.fills.recordMany(inputs);
  }

  /** Settlement FAILED when only the key is known. */
  failFill(key: FillKey, details: { reason: string; atMs: number }): FailOutcome {
    return this.fills.fail(key, details);
  }

  getFill(key: FillKey): FillRecord | null {
    return this.fills.find(normaliseFillKey(key));
  }

  /** Fills still provisional (MATCHED, not yet MINED or FAILED), oldest first. */
  provisionalFills(): FillRecord[] {
    return this.fills.provisional();
  }

  fillsForOrder(orderId: string): FillRecord[] {
    return this.fills.forOrder(checkId('orderId', orderId));
  }

  /** Trades (not failed) of a market timed at or after `sinceMs`, oldest first: MarketView.recentFills. */
  recentFills(marketSlug: string, sinceMs: number): FillView[] {
    const rows = this.recentFillRows.all(checkId('marketSlug', marketSlug), checkTimeMs('sinceMs', sinceMs));
    return rows.map((raw) => {
      const row = recentFillRowSchema.parse(raw);
      return { token: row.token, side: row.side, priceTicks: row.price_ticks, sizeRaw: row.size_raw, atMs: row.at_ms };
    });
  }

  // Market facts ---------------------------------------------------------------------------------

  recordMark(input: MarkInput): MarkOutcome {
    return this.market.recordMark(input);
  }

  recordMarks(inputs: readonly MarkInput[]): MarkOutcome[] {
    return this.market.recordMarks(inputs);
  }

  getMark(marketSlug: string): Mark | null {
    return this.market.getMark(marketSlug);
  }

  recordResolution(marketSlug: string, input: ResolutionInput, resolvedAtMs: number): ResolutionOutcome {
    return this.market.recordResolution(marketSlug, input, resolvedAtMs);
  }

  getResolution(marketSlug: string): Resolution | null {
    return this.market.getResolution(marketSlug);
  }

  /** Every market with a recorded resolution. */
  resolutions(): Resolution[] {
    return this.market.resolutions();
  }

  /** A resolved market's payout as the ledger sees it (what the holding pays, redeemed so far, still receivable); null when unresolved. */
  settlement(marketSlug: string): { readonly payoutRaw: number; readonly redeemedRaw: number; readonly receivableRaw: number } | null {
    const state = this.marketState(checkId('marketSlug', marketSlug));
    if (state.resolution === null) return null;
    const figures = marketPnl(state);
    return { payoutRaw: figures.payoutRaw ?? 0, redeemedRaw: state.redeemedRaw, receivableRaw: figures.receivableRaw };
  }

  recordRedemption(marketSlug: string, amountRaw: number, details: RedemptionDetails): RedemptionOutcome {
    return this.market.recordRedemption(marketSlug, amountRaw, details);
  }

  /** A redemption was recorded for the market (its tokens are gone: balances read 0). */
  hasRedemption(marketSlug: string): boolean {
    return this.market.redeemed().has(checkId('marketSlug', marketSlug));
  }

  // On-chain capital (the capital core's CapitalBook) -------------------------------------------

  pendingCapitalTx(): readonly PendingCapitalTx[] {
    return this.capital.pending();
  }

  capitalTxCount(marketSlug: string, kind: CapitalTxKind): number {
    return this.capital.count(marketSlug, kind);
  }

  journalCapitalTx(request: { readonly key: string; readonly kind: CapitalTxKind; readonly market: CapitalMarketRef; readonly amountRaw: number }, tx: { readonly hash: Hex; readonly nonce: number }, atMs: number): void {
    this.capital.journal(request, tx, atMs);
  }

  closeCapitalTx(key: string, status: CapitalCloseStatus, detail: string, atMs: number): void {
    this.capital.close(key, status, detail, atMs);
  }

  /** Books a confirmed merge (`recordMerge`) or redemption (`recordOnChainRedemption`) once, by its key. */
  bookCapitalTx(tx: ConfirmedCapitalTx): 'inserted' | 'duplicate' {
    return tx.kind === 'merge' ? this.recordMerge(tx) : this.recordOnChainRedemption(tx);
  }

  /**
   * A confirmed complete-set merge, in one transaction: the row booked, and min(YES, NO burned) sets leave both
   * positions as two merge-leg fills (kind 'adjustment', `merge:<hash>:<token>`) carrying the set's USDC pro rata to
   * their basis: cash in, total PnL unchanged (the pairs were valued at 1; their gain moves from unrealized to realized).
   */
  recordMerge(tx: ConfirmedCapitalTx): 'inserted' | 'duplicate' {
    return this.ctx.write('recordMerge', () => {
      if (this.capital.markBooked(tx) === 'duplicate') return 'duplicate';
      const yes = this.positions.get(tx.marketSlug, 'YES');
      const no = this.positions.get(tx.marketSlug, 'NO');
      // The ledger never books more sets than it holds (a difference with the chain is the chain check's to repair).
      const sets = Math.min(tx.yesBurnedRaw, tx.noBurnedRaw, yes.positionRaw, no.positionRaw);
      if (sets <= 0) return 'inserted';
      const legs = mergeLegCollateral(yes, no, sets);
      for (const [token, collateralRaw] of [['YES', legs.yesRaw], ['NO', legs.noRaw]] as const) {
        const tokenId = this.fills.tokenIdFor(tx.marketSlug, token) ?? '';
        this.fills.insertMergeLeg({ hash: tx.hash, marketSlug: tx.marketSlug, token, tokenId, sizeRaw: sets, collateralRaw, atMs: tx.atMs });
      }
      return 'inserted';
    });
  }

  /** A confirmed on-chain redemption, in one transaction: the row booked and the market's redemption recorded (its tokens read 0). */
  recordOnChainRedemption(tx: ConfirmedCapitalTx): 'inserted' | 'duplicate' {
    return this.ctx.write('recordOnChainRedemption', () => {
      if (this.capital.markBooked(tx) === 'duplicate') return 'duplicate';
      this.market.recordRedemption(tx.marketSlug, tx.usdcInRaw, { atMs: tx.atMs, txHash: tx.hash });
      return 'inserted';
    });
  }

  getKv(key: string): string | null {
    return this.kv.get(key);
  }

  setKv(key: string, value: string): void {
    this.kv.set(key, value);
  }

  // Positions and PnL ----------------------------------------------------------------------------

  tokenPosition(marketSlug: string, token: Outcome): TokenTotals {
    return this.positions.get(marketSlug, token);
  }

  /** The position part of the strategy's PositionView (the caller adds free collateral and locked sizes). */
  marketPosition(marketSlug: string): Omit<PositionView, 'freeCollateralRaw'> {
    const yes = this.positions.get(marketSlug, 'YES');
    const no = this.positions.get(marketSlug, 'NO');
    const redeemed = this.market.redeemed().has(marketSlug);
    return {
      yesRaw: redeemed ? 0 : yes.positionRaw,
      noRaw: redeemed ? 0 : no.positionRaw,
      yesAvgCost: redeemed ? null : averageCost(yes),
      noAvgCost: redeemed ? null : averageCost(no),
    };
  }

  /** Markets with fills, a resolution or a redemption. */
  markets(): string[] {
    return this.marketSlugs.all().map((row) => slugRowSchema.parse(row).market_slug);
  }

  marketState(marketSlug: string, redeemed?: ReadonlyMap<string, number>): MarketState {
    return marketStateOf(this.pnlSources, marketSlug, redeemed);
  }

  /** PnL per market and in total (see pnl.ts for the definitions; the queries: pnl-queries.ts). */
  pnl(query: PnlQuery = {}): PnlReport {
    return pnlReport(this.pnlSources, query);
  }

  /** PnL of the UTC day containing `nowMs` (what the daily loss limit reads): pnl-queries.ts. */
  dailyPnl(nowMs: number): DailyPnl {
    return dailyPnlReport(this.pnlSources, nowMs);
  }

  // Reconciliation support -----------------------------------------------------------------------

  /** Σ size of trades that have not failed, per venue order id. */
  orderFilledTotals(orderIds: readonly string[]): Map<string, number> {
    return this.fills.filledByOrder(orderIds.map((id, index) => checkId(`orderIds[${index}]`, id)));
  }

  /**
   * Sizes of the trades (not failed) of these orders RECORDED at or after `sinceMs` (the ledger's clock), per order, in
   * booking order: what a venue answer computed before that time may not count yet.
   */
  orderFillsRecordedSince(orderIds: readonly string[], sinceMs: number): Map<string, number[]> {
    return this.fills.recordedSinceByOrder(orderIds.map((id, index) => checkId(`orderIds[${index}]`, id)), checkTimeMs('sinceMs', sinceMs));
  }

  tokenBalances(): LedgerTokenBalance[] {
    const redeemed = this.market.redeemed();
    const pending = this.fills.pendingByKey();
    return this.positions.all().map(({ marketSlug, token, totals }) => ({
      marketSlug,
      token,
      balanceRaw: redeemed.has(marketSlug) ? 0 : totals.positionRaw,
      pendingRaw: pending.get(`${marketSlug}|${token}`) ?? 0,
    }));
  }

  tokenIdFor(marketSlug: string, token: Outcome): string | null {
    return this.fills.tokenIdFor(marketSlug, token);
  }

  /** Reconciliation writes (used by reconcile.ts; each is recorded with its reason). */
  applySyntheticFill(input: SyntheticFillInput): FillOutcome {
    return this.ctx.write('syntheticFill', () => this.fills.insertSynthetic(input));
  }

  applyAdjustment(input: AdjustmentInput): FillOutcome {
    return this.ctx.write('positionAdjustment', () => this.fills.insertAdjustment(input));
  }

  reverseFill(key: FillKey, reason: string): boolean {
    const checked = normaliseFillKey(key);
    const why = checkReason('reason', reason);
    return this.ctx.write('reverseFill', () => {
      const stored = this.fills.find(checked);
      if (stored === null || stored.state === 'failed') return false;
      this.fills.markFailed(stored, why);
      return true;
    });
  }

  /**
   * Marks a provisional fill mined, its economics unchanged (reconciliation found it settled: see reconcile.ts).
   * False when the fill is unknown or no longer provisional (the merge rule failed > mined > provisional holds).
   */
  confirmFill(key: FillKey, reason: string): boolean {
    const checked = normaliseFillKey(key);
    const why = checkReason('reason', reason);
    return this.ctx.write('confirmFill', () => {
      const stored = this.fills.find(checked);
      return stored !== null && this.fills.confirm(stored, why);
    });
  }

  // Integrity ------------------------------------------------------------------------------------

  counts(): { fills: number; events: number; orders: number } {
    return countsRowSchema.parse(this.countRows.get());
  }

  /** SQLite's quick_check plus positions == replay of fills. Empty when consistent. Read-only. */
  verify(): string[] {
    const problems: string[] = [];
    const check: unknown = this.db.pragma('quick_check', { simple: true });
    if (check !== 'ok') problems.push(`sqlite quick_check: ${String(check)}`);
    problems.push(...this.positions.verify());
    return problems;
  }

  /** Notifies the observer outside any write (used by reconcile for mismatches and repairs). */
  notify(notification: (observer: LedgerObserver) => void): void {
    this.ctx.notify(notification);
  }

  now(): number {
    return this.ctx.now();
  }
}

const recentFillRowSchema = z.object({
  token: z.enum(['YES', 'NO']),
  side: z.enum(['BUY', 'SELL']),
  price_ticks: z.number().int(),
  size_raw: z.number().int(),
  at_ms: z.number().int(),
});

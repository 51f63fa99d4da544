/**
 * Outside changes to the account: the venue's history (GET /portfolio/history, src/exchange/wire-history.ts) read
 * newest first, and every entry the bot did not cause booked as a cash flow in the ledger (src/ledger/history-repo.ts),
 * so its balances and the report stay right when the user claims, merges or splits by hand in the web app.
 *
 * The rule (`classifyHistoryEntry`, pure), in order:
 * 1. The bot's own: an entry whose transaction hash is one of the ledger's (a fill's, a redemption's) is the bot's
 *    action, already booked from its own records: recorded, never booked again. A claim without such a hash is also
 *    the bot's when the ledger holds its redemption of the same market for the same amount with no hash (the redeem
 *    answer carries none).
 * 2. Trades (Buy, Sell, Limit/Market Buy/Sell) not matched: recorded and counted, not booked (the bot's fills reach
 *    the ledger from its own orders; a trade by hand is a position change the ledger check reports).
 * 3. Claim and Merge: + collateralAmount (USDC came in); Split: − collateralAmount (USDC went into tokens).
 *    Convert and anything else: recorded, no cash (NegRisk conversions swap tokens).
 * Idempotent across restarts: each entry is keyed by its identity (transaction hash, strategy, market, outcome,
 * amounts) and recorded once; a read stops at the first page whose entries were all recorded before.
 *
 * Owns: the rule and the paging. Invariants: one read in flight; a failed read is logged once per interval and
 * retried at the next, never thrown into the timer; amounts raw 1e6; a page that comes after `stop` is not booked
 * (the ledger closes after the stop).
 */
import type { Logger } from 'pino';
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import type { HistoryEntry, HistoryPage } from '../exchange/wire-history.js';
import type { AccountHistoryInput, HistoryKind, HistoryRepo } from '../ledger/history-repo.js';

const TRADE = /^(limit |market )?(buy|sell)$/i;

export function historyKindOf(strategy: string | null): HistoryKind {
  const s = (strategy ?? '').trim();
  if (/claim|redeem/i.test(s)) return 'claim';
  if (/merge/i.test(s)) return 'merge';
  if (/split/i.test(s)) return 'split';
  if (/convert/i.test(s)) return 'convert';
  return TRADE.test(s) ? 'trade' : 'other';
}

/** The entry's identity: what it did, in which transaction. */
export function historyEntryKey(e: HistoryEntry): string {
  return [e.txHash ?? `t${e.atMs}`, e.strategy ?? '-', e.marketSlug ?? '-', e.outcomeIndex ?? '-', e.collateralRaw ?? '-', e.tokensRaw ?? '-'].join(':');
}

export interface OwnActions {
  /** Transaction hashes of the bot's fills and redemptions. */
  readonly txHashes: ReadonlySet<string>;
  /** Amounts of the bot's redemptions of a market recorded without a hash. */
  readonly unhashedRedemptions: (marketSlug: string) => readonly number[];
}

/** The rule of the header, for one entry. Pure. */
export function classifyHistoryEntry(e: HistoryEntry, own: OwnActions): AccountHistoryInput {
  const kind = historyKindOf(e.strategy);
  const base = { entryKey: historyEntryKey(e), atMs: e.atMs, txHash: e.txHash, kind, strategy: e.strategy, marketSlug: e.marketSlug, collateralRaw: e.collateralRaw, tokensRaw: e.tokensRaw };
  const notBooked = (isOwn: boolean, rule: string): AccountHistoryInput => ({ ...base, cashFlowRaw: 0, own: isOwn, booked: false, rule });
  if (e.txHash !== null && own.txHashes.has(e.txHash)) return notBooked(true, "own: the transaction hash of the bot's fill or redemption");
  if (kind === 'claim' && e.marketSlug !== null && e.collateralRaw !== null && own.unhashedRedemptions(e.marketSlug).includes(e.collateralRaw)) {
    return notBooked(true, "own: the bot's redemption of this market for this amount (recorded without a hash)");
  }
  if (kind === 'trade') return notBooked(false, 'trade not the bot\'s: recorded, not booked (the ledger check reports its position)');
  if (kind === 'convert' || kind === 'other') return notBooked(false, `${kind}: moves no USDC`);
  if (e.collateralRaw === null) return notBooked(false, `${kind} without a collateralAmount: nothing to book`);
  const sign = kind === 'split' ? -1 : 1;
  return { ...base, cashFlowRaw: sign * e.collateralRaw, own: false, booked: true, rule: `outside ${kind}: ${kind === 'split' ? '−' : '+'} collateralAmount` };
}

export type ReadHistoryPage = (cursor: string | null) => Promise<HistoryPage>;

export interface AccountHistoryDeps {
  readonly read: ReadHistoryPage;
  readonly ledger: { readonly history: Pick<HistoryRepo, 'record' | 'isRecorded' | 'ownTransactions' | 'unhashedRedemptions'> };
  readonly scheduler: Scheduler;
  /** Between reads; 0: only on demand (`syncOnce`). */
  readonly intervalMs: number;
  /** At most this many pages per read. */
  readonly maxPages: number;
  readonly log: Pick<Logger, 'warn' | 'info'>;
}

export interface HistorySyncResult {
  readonly pages: number;
  readonly recorded: number;
  readonly booked: number;
  readonly own: number;
}

export class AccountHistorySync {
  private cancel: (() => void) | null = null;
  private inFlight: Promise<HistorySyncResult> | null = null;
  private loggedFailAtMs = Number.NEGATIVE_INFINITY;
  /** Set by `stop`: a read still in flight then books nothing more (the ledger closes after the stop). */
  private stopped = false;

  constructor(private readonly deps: AccountHistoryDeps) {}

  start(): void {
    this.stopped = false;
    if (this.cancel !== null || this.deps.intervalMs <= 0) return;
    const arm = (): void => {
      this.cancel = this.deps.scheduler.schedule(this.deps.intervalMs, () => {
        void this.syncOnce().catch(() => undefined);
        if (this.cancel !== null) arm();
      });
    };
    // The first read comes one interval after the start (the start-up's requests go first).
    arm();
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.cancel = null;
  }

  /** Reads the history newest first until a page holds nothing new (or the last page, or `maxPages`), booking each new entry. */
  syncOnce(): Promise<HistorySyncResult> {
    this.inFlight ??= this.sync()
      .catch((error: unknown) => {
        const now = this.deps.scheduler.now();
        if (!this.stopped && now - this.loggedFailAtMs >= Math.max(this.deps.intervalMs, 1)) {
          this.loggedFailAtMs = now;
          this.deps.log.warn({ err: errorText(error) }, 'account history: read failed; tried again at the next read');
        }
        throw error;
      })
      .finally(() => {
        this.inFlight = null;
      });
    return this.inFlight;
  }

  private async sync(): Promise<HistorySyncResult> {
    const history = this.deps.ledger.history;
    let cursor: string | null = null;
    let pages = 0;
    let recorded = 0;
    let booked = 0;
    let own = 0;
    while (pages < this.deps.maxPages) {
      const page = await this.deps.read(cursor);
      // A page that comes after the stop is not booked: the ledger closes once the stop is done.
      if (this.stopped) break;
      pages += 1;
      const fresh = page.entries.filter((e) => !history.isRecorded(historyEntryKey(e)));
      const hashes = history.ownTransactions(fresh.flatMap((e) => (e.txHash === null ? [] : [e.txHash])));
      for (const entry of fresh) {
        const row = classifyHistoryEntry(entry, { txHashes: hashes, unhashedRedemptions: (slug) => history.unhashedRedemptions(slug) });
        if (!history.record(row)) continue;
        recorded += 1;
        if (row.booked) {
          booked += 1;
          this.deps.log.info({ kind: row.kind, market: row.marketSlug, cashFlowRaw: row.cashFlowRaw, txHash: row.txHash }, 'account history: an outside change booked as a cash flow');
        }
        if (row.own) own += 1;
      }
      // Newest first: once a page holds an entry recorded before, every older one was recorded too.
      if (fresh.length < page.entries.length || page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    return { pages, recorded, booked, own };
  }
}

/**
 * The backtest's fill booking, in the FillRecorder's place (src/booking/fill-recorder.ts): each fill the executor reports
 * for the first time is booked in the backtest's books (./accounting.ts) with the engine's exact economics (its
 * collateral and fee), at the moment the bot would book it in its ledger, so the account view sees holdings change
 * exactly when the bot's does.
 *
 * Owns: which of the engine's fills of the account are booked. Invariants: an engine fill is booked at most once; a
 * reported fill books the engine fills of its (trade event, order) oldest first until its size is covered; `drain`
 * books whatever the executor never reported (so the books always end equal to the engine's balances).
 */
import type { FillEvent } from '../orders/executor-types.js';
import { parseFillPartId } from '../orders/fill-part-id.js';
import type { AccountFill, SimEngine } from '../sim/engine/index.js';
import type { BotAccounting } from './accounting.js';

export class EngineFills {
  private readonly booked = new Set<string>();

  constructor(
    private readonly engine: SimEngine,
    private readonly profileId: number,
    private readonly accounting: BotAccounting,
    private readonly onBooked: (fill: AccountFill) => void = () => undefined,
  ) {}

  /** A fill the executor reported (first report of a fill part): its engine fills into the books. */
  book(fill: FillEvent): void {
    if (fill.orderId === null) return;
    const tradeEventId = parseFillPartId(fill.tradeEventId).tradeEventId;
    let covered = 0;
    const candidates = this.engine.accountTradesOf(this.profileId, tradeEventId, fill.orderId);
    for (let i = candidates.length - 1; i >= 0 && covered < fill.sizeRaw; i -= 1) {
      const candidate = candidates[i]!;
      if (this.booked.has(keyOf(candidate))) continue;
      covered += candidate.sizeRaw;
      this.apply(candidate);
    }
  }

  /** Books every engine fill of the account not booked yet, oldest first. */
  drain(): void {
    const newestFirst = this.engine.accountTrades(this.profileId);
    for (let i = newestFirst.length - 1; i >= 0; i -= 1) {
      const fill = newestFirst[i]!;
      if (!this.booked.has(keyOf(fill))) this.apply(fill);
    }
  }

  private apply(fill: AccountFill): void {
    this.booked.add(keyOf(fill));
    this.accounting.apply(fill);
    this.onBooked(fill);
  }
}

function keyOf(fill: AccountFill): string {
  return `${fill.tradeEventId}|${fill.matchId}|${fill.orderId}`;
}

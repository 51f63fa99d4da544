/**
 * The capital port on paper and in backtests: moves the balances of one account of the embedded simulator's engine,
 * in-process, by the conditional tokens' own rules (src/sim/engine/capital.ts: a merge burns one free YES and one free
 * NO per set for 1 USDC; a redemption burns the holding and pays the winners once the payout is posted). No API: the
 * engine's API redeem stays refused for an externally owned account, as on the venue.
 *
 * Each transaction gets a hash and a nonce (a counter), is journaled through `journal.broadcast` before it runs, and
 * keeps its outcome for `recover`; the block is the clock over Base's 2-second blocks. Gas is modelled as a fixed
 * `gasWei` per transaction (default 0: the engine has no ETH), reported for the books only.
 *
 * Invariants: a failure the chain would revert (too few free tokens to merge) is 'reverted' and moves nothing; a
 * payout not posted yet (or a market not resolved) is 'not-ready' and nothing is sent; a hash is never reused.
 */
import type { SimEngine } from '../sim/engine/index.js';
import type { CapitalBalances, CapitalPort, CapitalTxJournal, CapitalTxOutcome, CapitalTxRequest, Hex } from './port.js';

const BLOCK_MS = 2_000;

export interface EnginePortOptions {
  readonly engine: Pick<SimEngine, 'redeemOnChain' | 'mergeSets' | 'balances'>;
  readonly profileId: number;
  readonly now: () => number;
  /** Gas per transaction, in wei (decimal string); default '0'. */
  readonly gasWei?: string;
}

export class EngineCapitalPort implements CapitalPort {
  readonly kind = 'engine' as const;
  private nonce = 0;
  private readonly outcomes = new Map<Hex, CapitalTxOutcome>();

  constructor(private readonly o: EnginePortOptions) {}

  submit(request: CapitalTxRequest, journal: CapitalTxJournal): Promise<CapitalTxOutcome> {
    const { engine, profileId } = this.o;
    const conditionId = request.market.conditionId;
    // In-process the engine's move and the journal write are one synchronous step: no crash can fall between them.
    const answer = request.kind === 'redeem' ? engine.redeemOnChain(profileId, conditionId) : engine.mergeSets(profileId, conditionId, request.amountRaw);
    if (!answer.ok && (answer.code === 'PAYOUT_NOT_POSTED' || answer.code === 'MARKET_NOT_RESOLVED')) {
      return Promise.resolve({ status: 'not-ready', reason: answer.code });
    }
    const nonce = this.nonce++;
    const hash: Hex = `0x${(0xca91a1n * 2n ** 200n + BigInt(nonce)).toString(16).padStart(64, '0')}`;
    journal.broadcast(request.key, { hash, nonce });
    const block = this.block();
    const gasWei = this.gasWei();
    let outcome: CapitalTxOutcome;
    if (answer.ok) {
      const usdcInRaw = 'payoutRaw' in answer ? answer.payoutRaw : answer.usdcRaw;
      outcome = { status: 'confirmed', hash, block, usdcInRaw, yesBurnedRaw: answer.yesBurnedRaw, noBurnedRaw: answer.noBurnedRaw, gasWei };
    } else if (request.kind === 'redeem' && answer.code === 'NOTHING_TO_REDEEM') {
      // redeemPositions of a holding that pays nothing succeeds on-chain and pays 0.
      outcome = { status: 'confirmed', hash, block, usdcInRaw: 0, yesBurnedRaw: 0, noBurnedRaw: 0, gasWei };
    } else {
      outcome = { status: 'reverted', hash, block, reason: answer.code, gasWei };
    }
    this.outcomes.set(hash, outcome);
    return Promise.resolve(outcome);
  }

  recover(_request: CapitalTxRequest, tx: { readonly hash: Hex; readonly nonce: number }): Promise<CapitalTxOutcome | 'unknown'> {
    return Promise.resolve(this.outcomes.get(tx.hash) ?? 'unknown');
  }

  balances(tokenIds: readonly string[]): Promise<CapitalBalances> {
    const balances = this.o.engine.balances(this.o.profileId);
    if (balances === undefined) return Promise.reject(new Error(`engine port: no account ${this.o.profileId}`));
    const tokens = new Map<string, number>();
    for (const id of tokenIds) tokens.set(id, balances.tokens[id]?.totalRaw ?? 0);
    return Promise.resolve({ tokens, usdcRaw: balances.usdc.totalRaw });
  }

  private block(): number {
    return Math.floor(this.o.now() / BLOCK_MS);
  }

  private gasWei(): string {
    return this.o.gasWei ?? '0';
  }
}

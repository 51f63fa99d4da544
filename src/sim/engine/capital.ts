/**
 * The conditional tokens' own transactions, as a wallet sends them on-chain (no API, any wallet kind):
 * `redeemOnChain` (`redeemPositions`: burns the account's YES and NO of a resolved market whose payout is posted and
 * pays the winners) and `mergeSets` (`mergePositions`: burns one YES and one NO per set for 1 USDC, any time before
 * or after resolution) and `splitSets` (`splitPosition`: 1 USDC into one YES and one NO, before resolution). Each is
 * recorded on the account (`recordAction`) for the history (GET /portfolio/history). The simulator's capital port (src/capital/engine-port.ts) moves balances through these.
 *
 * Invariants: only free tokens are burned (tokens locked by resting SELL orders are not); a merge never pays out more
 * collateral than the market's pairs hold; every amount is a raw 1e6 integer.
 */
import type { EngineCore } from './core.js';
import { failure, fieldFailure, MESSAGES } from './errors.js';
import { credit, debitFree, type AccountState } from './ledger.js';
import { payOut } from './resolve.js';
import type { EngineFailure, MergeOutcome, RedeemOutcome, SplitOutcome } from './types.js';
import type { MarketState } from './state.js';

export function redeemOnChain(core: EngineCore, profileId: number, conditionId: string): RedeemOutcome {
  return core.command(() => {
    const account = core.accountsById.get(profileId);
    if (!account) return failure(404, 'PROFILE_NOT_FOUND', MESSAGES.profileNotFound);
    return payOut(core, account, conditionId);
  });
}

/** The account and market of a merge or split, or the failure naming what is wrong (inside a command). */
function setsTarget(core: EngineCore, profileId: number, conditionId: string, amountRaw: number): { readonly account: AccountState; readonly market: MarketState } | EngineFailure {
  const account = core.accountsById.get(profileId);
  if (!account) return failure(404, 'PROFILE_NOT_FOUND', MESSAGES.profileNotFound);
  if (!/^0x[0-9a-fA-F]{64}$/.test(conditionId)) return fieldFailure('INVALID_ARGUMENT', 'conditionId', 'conditionId must be 0x + 64 hex');
  if (!Number.isSafeInteger(amountRaw) || amountRaw <= 0) return fieldFailure('INVALID_ARGUMENT', 'amount', 'amount must be a positive integer');
  const market = core.marketsByCondition.get(conditionId.toLowerCase());
  if (!market) return failure(404, 'MARKET_NOT_FOUND', MESSAGES.marketNotFound);
  return { account, market };
}

export function mergeSets(core: EngineCore, profileId: number, conditionId: string, amountRaw: number): MergeOutcome {
  return core.command(() => {
    const target = setsTarget(core, profileId, conditionId, amountRaw);
    if (!('account' in target)) return target;
    const { account, market } = target;
    const { yesTokenId, noTokenId, id } = market.spec;
    const yes = account.token(yesTokenId);
    const no = account.token(noTokenId);
    if (yes.total - yes.locked < amountRaw || no.total - no.locked < amountRaw) {
      return failure(400, 'INSUFFICIENT_BALANCE', `merge of ${amountRaw} needs ${amountRaw} free YES and NO (free: ${yes.total - yes.locked} YES, ${no.total - no.locked} NO)`);
    }
    if (market.poolRaw < amountRaw) return failure(400, 'INSUFFICIENT_COLLATERAL', `the market's pairs hold ${market.poolRaw}, merge asks ${amountRaw}`);
    // One set pays exactly 1: each leg's proceeds split half and half (the remainder to YES).
    const noProceeds = Math.floor(amountRaw / 2);
    account.recordDispose(id, 'YES', amountRaw, yes.total, amountRaw - noProceeds);
    account.recordDispose(id, 'NO', amountRaw, no.total, noProceeds);
    debitFree(yes, amountRaw, 'merge yes');
    debitFree(no, amountRaw, 'merge no');
    credit(account.usdc, amountRaw, 'merge payout');
    market.poolRaw -= amountRaw;
    if (market.status !== 'RESOLVED') market.mintedNetRaw -= amountRaw;
    else {
      market.yesBurnedRaw += amountRaw;
      market.noBurnedRaw += amountRaw;
    }
    account.recordAction({ kind: 'Merge', atMs: core.clock.now(), marketSlug: market.spec.slug, collateralRaw: amountRaw, tokensRaw: [amountRaw, amountRaw] });
    core.enqueue({ kind: 'positions', profileId, slug: market.spec.slug });
    return { ok: true, conditionId: market.spec.conditionId, marketSlug: market.spec.slug, usdcRaw: amountRaw, yesBurnedRaw: amountRaw, noBurnedRaw: amountRaw };
  });
}

/**
 * `splitPosition`: `amountRaw` free USDC into as many YES and NO of a market not resolved yet (each leg's cost half and
 * half, the remainder to YES: a set costs exactly 1).
 */
export function splitSets(core: EngineCore, profileId: number, conditionId: string, amountRaw: number): SplitOutcome {
  return core.command(() => {
    const target = setsTarget(core, profileId, conditionId, amountRaw);
    if (!('account' in target)) return target;
    const { account, market } = target;
    if (market.status === 'RESOLVED') return failure(400, 'MARKET_RESOLVED', 'Market is resolved: nothing to split into');
    if (account.usdc.total - account.usdc.locked < amountRaw) return failure(400, 'INSUFFICIENT_BALANCE', `split of ${amountRaw} needs ${amountRaw} free USDC (free: ${account.usdc.total - account.usdc.locked})`);
    const { yesTokenId, noTokenId, id } = market.spec;
    const noCost = Math.floor(amountRaw / 2);
    debitFree(account.usdc, amountRaw, 'split collateral');
    credit(account.token(yesTokenId), amountRaw, 'split yes');
    credit(account.token(noTokenId), amountRaw, 'split no');
    account.recordAcquire(id, 'YES', amountRaw - noCost);
    account.recordAcquire(id, 'NO', noCost);
    market.poolRaw += amountRaw;
    market.mintedNetRaw += amountRaw;
    account.recordAction({ kind: 'Split', atMs: core.clock.now(), marketSlug: market.spec.slug, collateralRaw: amountRaw, tokensRaw: [amountRaw, amountRaw] });
    core.enqueue({ kind: 'positions', profileId, slug: market.spec.slug });
    return { ok: true, conditionId: market.spec.conditionId, marketSlug: market.spec.slug, usdcRaw: amountRaw, yesMintedRaw: amountRaw, noMintedRaw: amountRaw };
  });
}

/**
 * Resolution and redemption: `resolve` (a winner or a payout split; resting orders canceled, the payout posted
 * after `payoutDelayMs`) and `redeem` (server-managed wallets, after the payout: burns YES and NO, pays the winners).
 *
 * Invariants: a market resolves once; redemption pays exactly floor(balance × numerator / denominator) per token,
 * out of the market's pair collateral, and burns what it paid for.
 */
import type { EngineCore } from './core.js';
import { EngineInvariantError, failure, fieldFailure, MESSAGES } from './errors.js';
import { credit, debitFree, type AccountState } from './ledger.js';
import { cancelAllResting } from './order-exit.js';
import { isoTime } from './wire.js';
import type { RedeemOutcome, ResolveInput, ResolveOutcome } from './types.js';

export function resolve(core: EngineCore, slug: string, input: ResolveInput): ResolveOutcome {
  return core.command(() => {
    const market = core.marketsBySlug.get(slug);
    if (!market) return failure(404, 'MARKET_NOT_FOUND', MESSAGES.marketNotFound);
    if (market.status === 'RESOLVED') return failure(400, 'ALREADY_RESOLVED', MESSAGES.marketResolved);
    let winningOutcomeIndex: 0 | 1 | null = null;
    let payoutNumerators: readonly [number, number] | null = null;
    if ('winningOutcomeIndex' in input) {
      if (input.winningOutcomeIndex !== 0 && input.winningOutcomeIndex !== 1) {
        return fieldFailure('INVALID_ARGUMENT', 'winningOutcomeIndex', 'winningOutcomeIndex must be 0 (YES) or 1 (NO)');
      }
      winningOutcomeIndex = input.winningOutcomeIndex;
    } else {
      const [yes, no] = input.payoutNumerators;
      const valid = input.payoutNumerators.length === 2 && [yes, no].every((n) => Number.isSafeInteger(n) && (n ?? -1) >= 0);
      if (!valid || yes + no <= 0 || yes + no > 1_000_000_000) {
        return fieldFailure('INVALID_ARGUMENT', 'payoutNumerators', 'payoutNumerators must be two non-negative integers with a positive sum');
      }
      payoutNumerators = [yes, no];
    }
    cancelAllResting(core, market, 'MARKET_RESOLVED');
    market.status = 'RESOLVED';
    market.winningOutcomeIndex = winningOutcomeIndex;
    market.payoutNumerators = payoutNumerators;
    market.resolvedAtMs = core.clock.now();
    core.enqueue({
      kind: 'resolved',
      frame: {
        slug,
        type: 'CLOB',
        winningOutcome: winningOutcomeIndex === null ? null : winningOutcomeIndex === 0 ? 'YES' : 'NO',
        winningIndex: winningOutcomeIndex,
        payoutNumerators,
        resolutionDate: isoTime(market.resolvedAtMs),
      },
    });
    core.enqueue({ kind: 'status', slug });
    core.schedule(core.payoutDelayMs, () =>
      core.command(() => {
        market.payoutPosted = true;
        core.enqueue({ kind: 'status', slug });
      }),
    );
    return { ok: true, market: market.view() };
  });
}

export function payoutPosted(core: EngineCore, slug: string): boolean {
  return core.marketsBySlug.get(slug)?.payoutPosted ?? false;
}

export function redeem(core: EngineCore, profileId: number, conditionId: string): RedeemOutcome {
  return core.command(() => {
    const account = core.accountsById.get(profileId);
    if (!account) return failure(404, 'PROFILE_NOT_FOUND', MESSAGES.profileNotFound);
    if (!account.serverManagedWallet) {
      return failure(403, 'REDEEM_NOT_ALLOWED', 'Redemption through the API is only available for server-managed wallets');
    }
    return payOut(core, account, conditionId);
  });
}

/**
 * The conditional tokens' `redeemPositions` for one account (any wallet kind: the API path checks the kind first):
 * burns the account's YES and NO of a resolved market whose payout is posted, and pays the winners. Inside a command.
 */
export function payOut(core: EngineCore, account: AccountState, conditionId: string): RedeemOutcome {
  const profileId = account.profileId;
  if (!/^0x[0-9a-fA-F]{64}$/.test(conditionId)) return fieldFailure('INVALID_ARGUMENT', 'conditionId', 'conditionId must be 0x + 64 hex');
  const market = core.marketsByCondition.get(conditionId.toLowerCase());
  if (!market) return failure(404, 'MARKET_NOT_FOUND', MESSAGES.marketNotFound);
  if (market.status !== 'RESOLVED') return failure(400, 'MARKET_NOT_RESOLVED', 'Market is not resolved');
  if (!market.payoutPosted) return failure(400, 'PAYOUT_NOT_POSTED', 'Payout has not been posted on-chain yet');
  const { yesTokenId, noTokenId, id } = market.spec;
  const yesBurned = account.tokenTotal(yesTokenId);
  const noBurned = account.tokenTotal(noTokenId);
  const [numYes, numNo] = market.payoutNumerators ?? (market.winningOutcomeIndex === 0 ? [1, 0] : [0, 1]);
  const denominator = BigInt(numYes + numNo);
  const yesPay = Number((BigInt(yesBurned) * BigInt(numYes)) / denominator);
  const noPay = Number((BigInt(noBurned) * BigInt(numNo)) / denominator);
  if (yesPay + noPay === 0) return failure(400, 'NOTHING_TO_REDEEM', 'No redeemable balance for this condition');
  const yes = account.token(yesTokenId);
  const no = account.token(noTokenId);
  if (yes.locked !== 0 || no.locked !== 0) throw new EngineInvariantError('tokens locked in a resolved market');
  if (yesBurned > 0) account.recordDispose(id, 'YES', yesBurned, yesBurned, yesPay);
  if (noBurned > 0) account.recordDispose(id, 'NO', noBurned, noBurned, noPay);
  debitFree(yes, yesBurned, 'redeem yes');
  debitFree(no, noBurned, 'redeem no');
  credit(account.usdc, yesPay + noPay, 'redeem payout');
  market.poolRaw -= yesPay + noPay;
  market.yesBurnedRaw += yesBurned;
  market.noBurnedRaw += noBurned;
  account.recordAction({ kind: 'Claim', atMs: core.clock.now(), marketSlug: market.spec.slug, collateralRaw: yesPay + noPay, tokensRaw: [yesBurned, noBurned] });
  core.enqueue({ kind: 'positions', profileId, slug: market.spec.slug });
  return { ok: true, conditionId: market.spec.conditionId, marketSlug: market.spec.slug, payoutRaw: yesPay + noPay, yesBurnedRaw: yesBurned, noBurnedRaw: noBurned };
}

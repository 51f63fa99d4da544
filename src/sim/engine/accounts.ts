/**
 * Accounts: creation (checks, starting USDC and token grants), the admin's `addAccount` and `deposit`.
 *
 * Invariants: profile ids and addresses (any case) are unique; every USDC raw that enters is counted in
 * `usdcInRaw` and every granted token in its market's granted supply (checkInvariants holds the engine to both).
 */
import { getAddress, isAddress } from 'viem';
import type { Outcome } from '../../core/venue-rules/index.js';
import type { EngineCore } from './core.js';
import { failure, fieldFailure, MESSAGES } from './errors.js';
import { AccountState, credit } from './ledger.js';
import type { MarketState } from './state.js';
import type { AccountSpec, DepositInput, DepositOutcome, EngineFailure, SimAccount } from './types.js';

export const DEFAULT_FEE_RATE_BPS = 300;
const MAX_FEE_RATE_BPS = 10_000;

/** Returns an error text, or the new account. */
export function createAccount(core: EngineCore, spec: AccountSpec, synthetic: boolean): AccountState | string {
  if (!Number.isSafeInteger(spec.profileId) || spec.profileId < 1 || spec.profileId > 2_147_483_647) {
    return 'profileId must be an integer in [1, 2147483647]';
  }
  if (core.accountsById.has(spec.profileId)) return `duplicate profileId ${spec.profileId}`;
  if (!isAddress(spec.address, { strict: false })) return `address ${spec.address} is not an address`;
  const address = getAddress(spec.address);
  if (core.accountsByAddress.has(address.toLowerCase())) return `duplicate address ${address}`;
  if (!Number.isSafeInteger(spec.usdcRaw) || spec.usdcRaw < 0) return 'usdcRaw must be a non-negative integer';
  const fee = spec.feeRateBps ?? DEFAULT_FEE_RATE_BPS;
  if (!Number.isInteger(fee) || fee < 0 || fee > MAX_FEE_RATE_BPS) return `feeRateBps must be an integer in [0, ${MAX_FEE_RATE_BPS}]`;
  const grants: [MarketState, Outcome, string, number][] = [];
  for (const [tokenId, raw] of Object.entries(spec.tokens ?? {})) {
    const market = marketOfToken(core, tokenId);
    if (!market) return `token ${tokenId} belongs to no market`;
    if (!Number.isSafeInteger(raw) || raw < 0) return `token ${tokenId}: amount must be a non-negative integer`;
    grants.push([market, market.outcomeOf(tokenId) ?? 'YES', tokenId, raw]);
  }
  if (spec.partnerProfileId !== undefined && !Number.isSafeInteger(spec.partnerProfileId)) return 'partnerProfileId must be an integer';
  const account = new AccountState(
    spec.profileId,
    address,
    fee,
    spec.partnerProfileId ?? null,
    spec.serverManagedWallet ?? false,
    synthetic,
    spec.usdcRaw,
    synthetic ? Math.min(core.fillsPerAccount, 2000) : core.fillsPerAccount,
  );
  core.usdcInRaw += spec.usdcRaw;
  for (const [market, outcome, tokenId, raw] of grants) grantTokens(core, account, market, outcome, tokenId, raw);
  core.accountsById.set(spec.profileId, account);
  core.accountsByAddress.set(address.toLowerCase(), account);
  return account;
}

function grantTokens(core: EngineCore, account: AccountState, market: MarketState, outcome: Outcome, tokenId: string, raw: number): void {
  credit(account.token(tokenId), raw, 'grant');
  if (outcome === 'YES') market.yesGrantedRaw += raw;
  else market.noGrantedRaw += raw;
}

function marketOfToken(core: EngineCore, tokenId: string): MarketState | undefined {
  for (const m of core.marketsBySlug.values()) if (m.outcomeOf(tokenId) !== null) return m;
  return undefined;
}

export function addAccount(core: EngineCore, spec: AccountSpec): { readonly ok: true; readonly account: SimAccount } | EngineFailure {
  const result = createAccount(core, spec, false);
  if (typeof result === 'string') return fieldFailure('INVALID_ARGUMENT', 'account', result);
  return { ok: true, account: result.view() };
}

export function deposit(core: EngineCore, profileId: number, input: DepositInput): DepositOutcome {
  return core.command(() => {
    const account = core.accountsById.get(profileId);
    if (!account) return failure(404, 'PROFILE_NOT_FOUND', MESSAGES.profileNotFound);
    const usdc = input.usdcRaw ?? 0;
    if (!Number.isSafeInteger(usdc) || usdc < 0 || !Number.isSafeInteger(account.usdc.total + usdc + core.usdcInRaw)) {
      return fieldFailure('INVALID_ARGUMENT', 'usdcRaw', `must be a non-negative integer within safe range (got ${usdc})`);
    }
    const grants: [MarketState, Outcome, string, number][] = [];
    for (const [tokenId, raw] of Object.entries(input.tokens ?? {})) {
      const market = marketOfToken(core, tokenId);
      if (!market) return fieldFailure('TOKEN_NOT_IN_MARKET', `tokens.${tokenId}`, `token ${tokenId} belongs to no market`);
      if (!Number.isSafeInteger(raw) || raw < 0 || !Number.isSafeInteger(account.tokenTotal(tokenId) + raw)) {
        return fieldFailure('INVALID_ARGUMENT', `tokens.${tokenId}`, `must be a non-negative integer within safe range (got ${raw})`);
      }
      grants.push([market, market.outcomeOf(tokenId) ?? 'YES', tokenId, raw]);
    }
    credit(account.usdc, usdc, 'deposit');
    core.usdcInRaw += usdc;
    for (const [market, outcome, tokenId, raw] of grants) {
      grantTokens(core, account, market, outcome, tokenId, raw);
      core.enqueue({ kind: 'positions', profileId, slug: market.spec.slug });
    }
    return { ok: true, balances: account.balances() };
  });
}

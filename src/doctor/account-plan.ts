/**
 * Checks across the config files of one account (the same venue and API token, as `accountKey` of
 * src/config/shared-credentials.ts defines it): several bots on one token must share one rate limit (the venue counts
 * 2 in flight and 300 ms per token, not per process; `findUnsharedCredentials` finds those that do not), and their
 * budgets together must fit the wallet's USDC.
 *
 * Owns: the two verdicts (pure). Invariant: no token or secret value is ever part of a message.
 */
import type { UnsharedCredentials } from '../config/shared-credentials.js';
import { check, type CheckResult } from './types.js';

/** One config of the account, as the budget check needs it. */
export interface BudgetEntry {
  readonly path: string;
  readonly maxNotionalRaw: number;
  readonly dailyLossLimitRaw: number;
}

/** `unshared`: what `unsharedSiblings` found for this config; `accountConfigs`: every config of the account (self first). */
export function rateLimitVerdict(unshared: readonly UnsharedCredentials[], accountConfigs: readonly string[]): CheckResult {
  const title = 'rate limit across configs';
  const first = unshared[0];
  if (first !== undefined) {
    return check('rate-limits', title, 'warn', first.message, 'give every one of them the same rateLimits.shared.redis (one limiter for the token), or give each bot its own API token', {
      configs: [...first.paths],
      unshared: [...first.unshared],
    });
  }
  if (accountConfigs.length <= 1) return check('rate-limits', title, 'pass', 'no other config in this directory uses these credentials', undefined, { configs: [...accountConfigs] });
  return check('rate-limits', title, 'pass', `${accountConfigs.length} configs share one rate limit on these credentials (${accountConfigs.join(', ')})`, undefined, { configs: [...accountConfigs] });
}

const usdc = (raw: number): string => `${(raw / 1_000_000).toFixed(2)} USDC`;

/** Sum of the budgets of every config on the account against the wallet's USDC (null: balance unknown). */
export function budgetVerdict(group: readonly BudgetEntry[], usdcBalanceRaw: number | null): CheckResult {
  const title = 'budgets vs USDC balance';
  const notional = group.reduce((sum, c) => sum + c.maxNotionalRaw, 0);
  const loss = group.reduce((sum, c) => sum + c.dailyLossLimitRaw, 0);
  const data = { configs: group.map((c) => c.path), maxNotionalRawTotal: notional, dailyLossLimitRawTotal: loss, usdcBalanceRaw };
  const sum = `risk.maxNotional ${group.length > 1 ? `of ${group.length} configs (${group.map((c) => c.path).join(', ')}) adds up to` : 'is'} ${usdc(notional)}`;
  if (usdcBalanceRaw === null) return check('budget', title, 'skip', `${sum}; the USDC balance was not read`, 'give --rpc-url to compare it with the wallet balance', data);
  if (notional > usdcBalanceRaw) {
    return check('budget', title, 'warn', `${sum}, more than the wallet's ${usdc(usdcBalanceRaw)}: BUY orders beyond the balance are refused by the venue`, 'lower risk.maxNotional or fund the wallet', data);
  }
  return check('budget', title, 'pass', `${sum}, within the wallet's ${usdc(usdcBalanceRaw)} (daily loss limits add up to ${usdc(loss)})`, undefined, data);
}

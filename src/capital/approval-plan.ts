/**
 * What `outcome-maker approve` must see on-chain, and what it would send: pure functions, no I/O.
 *
 * Owns: the list of approvals the bot's wallet needs (from `venue.chain`: USDC `approve` to each exchange; the
 * conditional tokens' `setApprovalForAll` to each exchange and each NegRisk adapter), the rule that says whether a
 * reading already satisfies one, and the text of the listing. Invariants: amounts are exact bigints in raw 1e6
 * units; an unlimited allowance counts as set from 2^255 up (a token may spend it down from 2^256 − 1); a need is
 * listed once per (contract, spender) pair, in a stable order.
 */
import { maxUint256 } from 'viem';
import { UNLIMITED_FLOOR, type ChainConfig } from '../config/chain-schema.js';

export type ApprovalNeed =
  | {
      readonly kind: 'usdc';
      /** The ERC-20 collateral contract. */
      readonly token: string;
      readonly spender: string;
      readonly role: 'exchange';
      /** The allowance `approve` grants: raw 1e6, or 2^256 − 1 for unlimited. */
      readonly amount: bigint;
    }
  | {
      readonly kind: 'ctf';
      /** The conditional-tokens (ERC-1155) contract. */
      readonly token: string;
      readonly operator: string;
      readonly role: 'exchange' | 'adapter';
    };

/** What the chain said about one need. */
export type ApprovalReading = { readonly kind: 'usdc'; readonly allowance: bigint } | { readonly kind: 'ctf'; readonly approved: boolean };

export interface ApprovalRow {
  readonly need: ApprovalNeed;
  readonly reading: ApprovalReading;
  readonly set: boolean;
}

/** Every approval the config's contracts need, USDC allowances first. */
export function approvalsNeeded(chain: ChainConfig): ApprovalNeed[] {
  const amount = chain.usdcAllowanceRaw === null ? maxUint256 : BigInt(chain.usdcAllowanceRaw);
  return [
    ...chain.exchanges.map((spender): ApprovalNeed => ({ kind: 'usdc', token: chain.usdc, spender, role: 'exchange', amount })),
    ...chain.exchanges.map((operator): ApprovalNeed => ({ kind: 'ctf', token: chain.conditionalTokens, operator, role: 'exchange' })),
    ...chain.adapters.map((operator): ApprovalNeed => ({ kind: 'ctf', token: chain.conditionalTokens, operator, role: 'adapter' })),
  ];
}

/** True when the reading already satisfies the need (nothing to send). */
export function isSatisfied(need: ApprovalNeed, reading: ApprovalReading): boolean {
  if (need.kind === 'ctf') return reading.kind === 'ctf' && reading.approved;
  if (reading.kind !== 'usdc') return false;
  return need.amount === maxUint256 ? reading.allowance >= UNLIMITED_FLOOR : reading.allowance >= need.amount;
}

/** An exact USDC amount: "12.5 USDC", or "unlimited" from 2^255 up. */
export function formatUsdc(raw: bigint): string {
  if (raw >= UNLIMITED_FLOOR) return 'unlimited';
  const frac = (raw % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${raw / 1_000_000n}${frac ? `.${frac}` : ''} USDC`;
}

/** One line naming the approval (what it is, on which contract, to whom). */
export function describeNeed(need: ApprovalNeed): string {
  return need.kind === 'usdc'
    ? `USDC ${need.token} allowance to ${need.role} ${need.spender}`
    : `conditional tokens ${need.token} operator ${need.role} ${need.operator}`;
}

function describeReading(need: ApprovalNeed, reading: ApprovalReading): string {
  if (need.kind === 'usdc' && reading.kind === 'usdc') return `${formatUsdc(reading.allowance)} (wanted ${formatUsdc(need.amount)})`;
  return reading.kind === 'ctf' && reading.approved ? 'approved' : 'not approved';
}

/** The listing: one line per need, `set` or `MISSING`, then a count. */
export function formatListing(rows: readonly ApprovalRow[]): string {
  const lines = rows.map((row) => `  ${row.set ? 'set    ' : 'MISSING'}  ${describeNeed(row.need)}: ${describeReading(row.need, row.reading)}`);
  const missing = rows.filter((row) => !row.set).length;
  lines.push(missing === 0 ? `all ${rows.length} approvals are set` : `${missing} of ${rows.length} approvals missing`);
  return `${lines.join('\n')}\n`;
}

/**
 * `venue.chain` of a live config: the on-chain side of trading (docs/going-live.md), read by `outcome-maker approve`
 * and `doctor`: the JSON-RPC endpoint, the collateral (USDC) and conditional-token contracts, and the contracts the
 * wallet must approve (exchange-api.md, Approvals: BUY needs USDC approved to each `venue.exchange`; SELL needs the
 * conditional tokens approved to each exchange, and to each `venue.adapter` of a NegRisk market).
 *
 * Also the settings of the on-chain settlement (src/capital/chain-port.ts: redeem and merge from the wallet): the
 * gas-price ceiling and how long a transaction's receipt is waited for.
 *
 * Owns: the section's schema, its defaults for Base (chain 8453) and its conversion into `ChainConfig`.
 * Invariants: every address is 0x + 40 hex digits; the RPC endpoint is a URL or the NAME of an environment variable
 * holding one (a URL that carries a provider key is a secret); the USDC allowance is exact raw units or unlimited;
 * the gas-price ceiling is an exact integer of wei (given in gwei, at most 9 decimals).
 */
import { z } from 'zod';
import { parseScaled, rawToDecimal, UnitError } from '../core/venue-rules/index.js';

/** USDC and the conditional tokens on Base, chain 8453 (the official client's CONTRACT_ADDRESSES). */
export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const BASE_CTF = '0xC9c98965297Bc527861c898329Ee280632B76e18';
/** The `venue.exchange` of every simple CLOB market recorded from the live venue (test/fixtures/venue-samples/). */
export const RECORDED_CLOB_EXCHANGE = '0xF1De958F8641448A5ba78c01f434085385Af096D';
/** An allowance at or above this counts as unlimited (a token may spend down from 2^256 − 1). */
export const UNLIMITED_FLOOR = 2n ** 255n;
/**
 * The default gas-price ceiling of a settlement transaction, 0.1 gwei: Base's usual price is 0.001–0.05 gwei, so a
 * redeem or merge goes through at once on an ordinary day and waits out a congestion spike (docs/settlement.md,
 * "Gas"). At 0.1 gwei a redeem (~150,000 gas) costs 0.000015 ETH, about 5 US cents at 3,000 USD/ETH.
 */
export const DEFAULT_MAX_GAS_PRICE_GWEI = '0.1';
/** Base makes a block every 2 s: two minutes without a receipt means the transaction is stuck (priced out) or lost. */
export const DEFAULT_RECEIPT_TIMEOUT_SEC = 120;
const WEI_PER_GWEI_DECIMALS = 9;

const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;

export interface ChainConfig {
  /** JSON-RPC endpoint: a literal URL or the environment variable that holds it; null = not configured (give --rpc-url). */
  readonly rpcUrl: { readonly kind: 'url'; readonly url: string } | { readonly kind: 'env'; readonly env: string } | null;
  readonly usdc: string;
  readonly conditionalTokens: string;
  /** Spenders of USDC and operators of the conditional tokens. */
  readonly exchanges: readonly string[];
  /** NegRisk adapters: operators of the conditional tokens only. */
  readonly adapters: readonly string[];
  /** The USDC allowance `approve` grants each exchange, raw 1e6; null = unlimited (2^256 − 1). */
  readonly usdcAllowanceRaw: number | null;
  /** Settlement transactions (redeem, merge) are not sent while the chain's gas price is above this (wei). */
  readonly maxGasPriceWei: number;
  /** How long a settlement transaction's receipt is waited for before the port gives up waiting (it stays journaled). */
  readonly receiptTimeoutMs: number;
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected an address: 0x and 40 hex digits');

const addressList = z.array(address).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((item, index) => {
    if (seen.has(item.toLowerCase())) ctx.addIssue({ code: 'custom', path: [index], message: 'listed twice', input: item });
    seen.add(item.toLowerCase());
  });
});

const rpcUrl = z.string().superRefine((text, ctx) => {
  if (ENV_NAME.test(text)) return;
  if (!/^https?:\/\/[^\s/]+/.test(text) || !URL.canParse(text)) {
    ctx.addIssue({ code: 'custom', input: text, message: 'expected an http(s) URL of a JSON-RPC endpoint, or the NAME of an environment variable holding it' });
  }
});

const allowance = z.union([z.literal('unlimited'), z.number(), z.string()], { error: 'expected "unlimited" or an amount of USDC' }).transform((value, ctx): number | null => {
  if (value === 'unlimited') return null;
  try {
    const raw = parseScaled('amount', value, 6);
    if (raw > 0) return raw;
    ctx.addIssue({ code: 'custom', message: 'must be above 0 (or "unlimited")', input: value });
  } catch (error) {
    if (!(error instanceof UnitError)) throw error;
    ctx.addIssue({ code: 'custom', message: `${error.reason} (or "unlimited")`, input: value });
  }
  return z.NEVER;
});

const gasPriceGwei = z.union([z.number(), z.string()], { error: 'expected a gas price in gwei, e.g. 0.1' }).transform((value, ctx): number => {
  try {
    const wei = parseScaled('gwei', value, WEI_PER_GWEI_DECIMALS);
    if (wei > 0) return wei;
    ctx.addIssue({ code: 'custom', message: 'must be above 0', input: value });
  } catch (error) {
    if (!(error instanceof UnitError)) throw error;
    ctx.addIssue({ code: 'custom', message: `${error.reason} (a gas price in gwei, at most 9 decimals)`, input: value });
  }
  return z.NEVER;
});

/** wei → the gwei text a file writes (exact: 9 decimals at most). */
export function weiToGwei(wei: number): string {
  const fraction = String(wei % 10 ** WEI_PER_GWEI_DECIMALS).padStart(WEI_PER_GWEI_DECIMALS, '0').replace(/0+$/, '');
  return `${Math.floor(wei / 10 ** WEI_PER_GWEI_DECIMALS)}${fraction ? `.${fraction}` : ''}`;
}

export const chainSchema = z
  .strictObject({
    rpcUrl: rpcUrl.nullable().default(null),
    usdc: address.default(BASE_USDC),
    conditionalTokens: address.default(BASE_CTF),
    exchanges: addressList.default([RECORDED_CLOB_EXCHANGE]),
    adapters: addressList.default([]),
    usdcAllowance: allowance.prefault('unlimited'),
    maxGasPriceGwei: gasPriceGwei.prefault(DEFAULT_MAX_GAS_PRICE_GWEI),
    receiptTimeoutSec: z.number().int().min(5).max(3600).default(DEFAULT_RECEIPT_TIMEOUT_SEC),
  })
  .transform(
    (c): ChainConfig => ({
      rpcUrl: c.rpcUrl === null ? null : ENV_NAME.test(c.rpcUrl) ? { kind: 'env', env: c.rpcUrl } : { kind: 'url', url: c.rpcUrl },
      usdc: c.usdc,
      conditionalTokens: c.conditionalTokens,
      exchanges: c.exchanges,
      adapters: c.adapters,
      usdcAllowanceRaw: c.usdcAllowance,
      maxGasPriceWei: c.maxGasPriceGwei,
      receiptTimeoutMs: c.receiptTimeoutSec * 1000,
    }),
  );

/** The section as a file writes it (for `check-config`): the inverse of `chainSchema`. */
export function chainToFile(c: ChainConfig): Record<string, unknown> {
  return {
    rpcUrl: c.rpcUrl === null ? null : c.rpcUrl.kind === 'env' ? c.rpcUrl.env : c.rpcUrl.url,
    usdc: c.usdc,
    conditionalTokens: c.conditionalTokens,
    exchanges: [...c.exchanges],
    adapters: [...c.adapters],
    usdcAllowance: c.usdcAllowanceRaw === null ? 'unlimited' : rawToDecimal(c.usdcAllowanceRaw),
    maxGasPriceGwei: weiToGwei(c.maxGasPriceWei),
    receiptTimeoutSec: c.receiptTimeoutMs / 1000,
  };
}


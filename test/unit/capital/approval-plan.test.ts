/**
 * The pure side of `approve` and its config section: which approvals a `venue.chain` needs, when a reading
 * satisfies one (exact raw amounts; unlimited from 2^255), how amounts print, and the section's validation.
 */
import { maxUint256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { approvalsNeeded, formatListing, formatUsdc, isSatisfied, type ApprovalNeed } from '../../../src/capital/approval-plan.js';
import { BASE_CTF, BASE_USDC, RECORDED_CLOB_EXCHANGE, weiToGwei } from '../../../src/config/chain-schema.js';
import { ConfigError, parseConfigText, type AppConfig } from '../../../src/config/index.js';

const EX2 = '0x00000000000000000000000000000000000000e2';
const ADAPTER = '0x00000000000000000000000000000000000000ad';

function live(chain: string): AppConfig {
  return parseConfigText(`venue: {kind: live, baseUrl: "http://127.0.0.1:9", socketUrl: "ws://127.0.0.1:9"${chain === '' ? '' : `, chain: ${chain}`}}\nmarkets: [m]\nstrategy: {name: fixed-spread}\n`, { source: 'test.yaml', baseDir: '/tmp' });
}

function chainOf(config: AppConfig) {
  if (config.venue.kind !== 'live') throw new Error('not live');
  return config.venue.chain;
}

function problems(chain: string): string {
  try {
    live(chain);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return '';
}

describe('venue.chain', () => {
  it('defaults to Base: USDC, the conditional tokens and the recorded exchange, an unlimited allowance, no RPC endpoint, a 0.1 gwei ceiling', () => {
    expect(chainOf(live(''))).toEqual({
      rpcUrl: null,
      usdc: BASE_USDC,
      conditionalTokens: BASE_CTF,
      exchanges: [RECORDED_CLOB_EXCHANGE],
      adapters: [],
      usdcAllowanceRaw: null,
      maxGasPriceWei: 100_000_000,
      receiptTimeoutMs: 120_000,
    });
  });

  it('reads the gas-price ceiling in gwei, exactly, and the receipt time-out in seconds; names a bad one', () => {
    expect(chainOf(live('{maxGasPriceGwei: "0.000000001", receiptTimeoutSec: 30}'))).toMatchObject({ maxGasPriceWei: 1, receiptTimeoutMs: 30_000 });
    expect(chainOf(live('{maxGasPriceGwei: 2.5}')).maxGasPriceWei).toBe(2_500_000_000);
    expect(weiToGwei(2_500_000_001)).toBe('2.500000001');
    expect(weiToGwei(100_000_000)).toBe('0.1');
    expect(problems('{maxGasPriceGwei: 0}')).toContain('venue.chain.maxGasPriceGwei: must be above 0');
    expect(problems('{maxGasPriceGwei: "0.0000000001"}')).toContain('venue.chain.maxGasPriceGwei: more than 9 decimal places');
    expect(problems('{receiptTimeoutSec: 1}')).toContain('venue.chain.receiptTimeoutSec');
  });

  it('reads an RPC URL or a variable name, and an exact allowance in USDC', () => {
    expect(chainOf(live('{rpcUrl: OM_RPC_URL, usdcAllowance: "12.000001"}'))).toMatchObject({ rpcUrl: { kind: 'env', env: 'OM_RPC_URL' }, usdcAllowanceRaw: 12_000_001 });
    expect(chainOf(live('{rpcUrl: "http://127.0.0.1:8545"}')).rpcUrl).toEqual({ kind: 'url', url: 'http://127.0.0.1:8545' });
  });

  it('names the field and the value of each problem', () => {
    const text = problems(`{rpcUrl: "ftp://x", usdc: "0x123", exchanges: ["${EX2}", "${EX2.toUpperCase().replace('0X', '0x')}"], usdcAllowance: 0}`);
    expect(text).toContain('venue.chain.rpcUrl: expected an http(s) URL of a JSON-RPC endpoint');
    expect(text).toContain('venue.chain.usdc: expected an address: 0x and 40 hex digits (got "0x123")');
    expect(text).toContain('venue.chain.exchanges[1]: listed twice');
    expect(text).toContain('venue.chain.usdcAllowance: must be above 0');
    expect(problems('{usdcAllowance: 1.0000001}')).toContain('venue.chain.usdcAllowance: more than 6 decimal places');
  });
});

describe('approvalsNeeded and isSatisfied', () => {
  const chain = { ...chainOf(live('')), exchanges: [RECORDED_CLOB_EXCHANGE, EX2], adapters: [ADAPTER] };

  it('lists USDC to each exchange, then the conditional tokens to each exchange and adapter', () => {
    const needs = approvalsNeeded(chain);
    expect(needs.map((n) => (n.kind === 'usdc' ? `usdc>${n.spender}` : `ctf>${n.role}:${n.operator}`))).toEqual([
      `usdc>${RECORDED_CLOB_EXCHANGE}`,
      `usdc>${EX2}`,
      `ctf>exchange:${RECORDED_CLOB_EXCHANGE}`,
      `ctf>exchange:${EX2}`,
      `ctf>adapter:${ADAPTER}`,
    ]);
    expect(needs[0]).toMatchObject({ kind: 'usdc', token: BASE_USDC, amount: maxUint256 });
  });

  it('an unlimited allowance counts as set from 2^255 (spent down from 2^256 - 1), not below', () => {
    const need = approvalsNeeded(chain)[0] as ApprovalNeed;
    expect(isSatisfied(need, { kind: 'usdc', allowance: maxUint256 - 5_000_000n })).toBe(true);
    expect(isSatisfied(need, { kind: 'usdc', allowance: 2n ** 255n })).toBe(true);
    expect(isSatisfied(need, { kind: 'usdc', allowance: 2n ** 255n - 1n })).toBe(false);
    expect(isSatisfied(need, { kind: 'usdc', allowance: 0n })).toBe(false);
  });

  it('a bounded allowance is set at exactly its amount, one raw unit less is missing', () => {
    const need = approvalsNeeded({ ...chain, usdcAllowanceRaw: 2_500_500_000 })[0] as ApprovalNeed;
    expect(isSatisfied(need, { kind: 'usdc', allowance: 2_500_500_000n })).toBe(true);
    expect(isSatisfied(need, { kind: 'usdc', allowance: 2_500_499_999n })).toBe(false);
  });

  it('a conditional-token approval is set only when approved; a reading of the other kind never satisfies', () => {
    const need = approvalsNeeded(chain)[4] as ApprovalNeed;
    expect(isSatisfied(need, { kind: 'ctf', approved: true })).toBe(true);
    expect(isSatisfied(need, { kind: 'ctf', approved: false })).toBe(false);
    expect(isSatisfied(need, { kind: 'usdc', allowance: maxUint256 })).toBe(false);
  });

  it('prints exact USDC amounts and counts what is missing', () => {
    expect(formatUsdc(0n)).toBe('0 USDC');
    expect(formatUsdc(1_000_001n)).toBe('1.000001 USDC');
    expect(formatUsdc(maxUint256)).toBe('unlimited');
    const needs = approvalsNeeded({ ...chain, exchanges: [EX2], adapters: [] });
    const text = formatListing([
      { need: needs[0] as ApprovalNeed, reading: { kind: 'usdc', allowance: 1_500_000n }, set: false },
      { need: needs[1] as ApprovalNeed, reading: { kind: 'ctf', approved: true }, set: true },
    ]);
    expect(text).toContain(`MISSING  USDC ${BASE_USDC} allowance to exchange ${EX2}: 1.5 USDC (wanted unlimited)`);
    expect(text).toContain(`set      conditional tokens ${BASE_CTF} operator exchange ${EX2}: approved`);
    expect(text).toContain('1 of 2 approvals missing');
  });
});

/**
 * Doctor's settlement verdicts (pure): the route (API for a server-managed sub-account, else on-chain), the gas
 * runway at the ceiling, and the approvals an on-chain redeem or merge needs (none on a plain market; the adapter's
 * setApprovalForAll on a grouped one).
 */
import { describe, expect, it } from 'vitest';
import { gasVerdict, settlementApprovalsVerdict, settlementRouteVerdict } from '../../../src/doctor/settlement-checks.js';
import type { ApprovalTarget } from '../../../src/doctor/verdicts.js';

const WALLET = '0x2222222222222222222222222222222222222222';
const ADAPTER = '0x1111111111111111111111111111111111111111';
const targets: ApprovalTarget[] = [
  { address: '0x3333333333333333333333333333333333333333', role: 'exchange', type: 'negrisk', markets: ['g-1'] },
  { address: ADAPTER, role: 'adapter', type: 'negrisk', markets: ['g-1'] },
];

describe('settlement verdicts', () => {
  it('a sub-account redeems through the API; the key\'s own wallet on-chain, a warning without an endpoint', () => {
    expect(settlementRouteVerdict({ kind: 'api', onBehalfOf: 42 })).toMatchObject({ status: 'pass', message: expect.stringContaining('sub-account 42') as unknown });
    expect(settlementRouteVerdict({ kind: 'chain', wallet: WALLET, rpc: true }).status).toBe('pass');
    expect(settlementRouteVerdict({ kind: 'chain', wallet: WALLET, rpc: false })).toMatchObject({ status: 'warn', fix: expect.stringContaining('venue.chain.rpcUrl') as unknown });
    expect(settlementApprovalsVerdict({ kind: 'api', onBehalfOf: 42 }, targets, null).status).toBe('skip');
  });

  it('gas: fails below one transaction at the ceiling, warns below 50, passes above; a failed read is a warning', () => {
    const perTx = 200_000n * 100_000_000n; // 0.1 gwei
    expect(gasVerdict(WALLET, { ok: true, wei: perTx - 1n }, 100_000_000).status).toBe('fail');
    expect(gasVerdict(WALLET, { ok: true, wei: perTx * 49n }, 100_000_000)).toMatchObject({ status: 'warn', message: expect.stringContaining('about 49 redeems or merges') as unknown });
    expect(gasVerdict(WALLET, { ok: true, wei: perTx * 50n }, 100_000_000).status).toBe('pass');
    expect(gasVerdict(WALLET, { ok: false, error: 'timeout' }, 100_000_000).status).toBe('warn');
    expect(gasVerdict(WALLET, null, 100_000_000).status).toBe('skip');
  });

  it('approvals: the adapter of a grouped market, set, missing or not read; none for plain markets', () => {
    const chain = { kind: 'chain', wallet: WALLET, rpc: true } as const;
    expect(settlementApprovalsVerdict(chain, [targets[0] as ApprovalTarget], new Map()).message).toContain('no grouped (NegRisk) market');
    expect(settlementApprovalsVerdict(chain, targets, new Map([[ADAPTER, { ok: true, approved: true }]])).status).toBe('pass');
    const missing = settlementApprovalsVerdict(chain, targets, new Map([[ADAPTER, { ok: true, approved: false }]]));
    expect(missing).toMatchObject({ status: 'fail', message: expect.stringContaining(`NegRisk adapter ${ADAPTER} (g-1)`) as unknown });
    expect(settlementApprovalsVerdict(chain, targets, new Map([[ADAPTER, { ok: false, error: 'x' }]])).status).toBe('warn');
    expect(settlementApprovalsVerdict(chain, targets, null).status).toBe('warn');
  });
});

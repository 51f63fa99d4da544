/**
 * `doctor` and the JSON-RPC endpoint of the capital checks (issue 38's bad input): an endpoint that serves another
 * chain than `venue.chainId`, or one that does not answer, is a failed `rpc` line naming it (and both chain ids), and
 * nothing is read from it: the balance, approvals and gas lines say they were not read, rather than showing another
 * chain's (empty) wallet. The right chain passes. Doctor sends nothing (read-only), so nothing is booked.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadConfigFile } from '../../src/config/index.js';
import { runDoctor, type CheckResult, type DoctorReport } from '../../src/doctor/index.js';
import { deriveAccountCredentials, startSimulator } from '../../src/sim/index.js';
import { closedLoopbackPort } from '../support/closed-port.js';

const SEED = 4242;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function line(report: DoctorReport, id: string): CheckResult {
  const found = report.checks.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no ${id} line in ${report.checks.map((c) => c.id).join(', ')}`);
  return found;
}

/** A simulator whose JSON-RPC serves `chainId`, one account, and a live config (venue.chainId 8453) pointing at it. */
async function rig(chainId: number): Promise<{ configPath: string; env: Record<string, string>; rpcUrl: string }> {
  const account = deriveAccountCredentials(SEED, 'doctor-rpc', 2);
  const sim = await startSimulator({
    seed: SEED,
    chainId,
    markets: 6,
    synthetic: { autoStep: false },
    accounts: [{ profileId: 2, address: account.address, usdc: '500', apiTokens: [{ tokenId: account.tokenId, secret: account.secret, scopes: ['trading'] }] }],
  });
  cleanups.push(() => sim.close());
  sim.control.syntheticStep();
  const dir = mkdtempSync(join(tmpdir(), 'om-doctor-rpc-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const slug = sim.engine.markets().find((m) => m.groupSlug === undefined)?.slug ?? '';
  const configPath = join(dir, 'bot.yaml');
  writeFileSync(
    configPath,
    stringify({
      venue: { kind: 'live', baseUrl: sim.baseUrl, socketUrl: sim.socketUrl },
      credentials: { apiTokenId: 'OM_API_TOKEN_ID', apiSecret: 'OM_API_SECRET', privateKey: 'OM_PRIVATE_KEY' },
      markets: { slugs: [slug] },
      strategy: { name: 'fixed-spread' },
      pricing: { hermes: { endpoint: sim.hermesUrl } },
      database: { path: ':memory:' },
    }),
  );
  return { configPath, env: { OM_API_TOKEN_ID: account.tokenId, OM_API_SECRET: account.secret, OM_PRIVATE_KEY: account.privateKey }, rpcUrl: `${sim.baseUrl}/_sim/rpc` };
}

describe('doctor: the JSON-RPC endpoint of the on-chain checks', () => {
  it('another chain than venue.chainId: the rpc line fails naming both ids, nothing is read from it; the right chain passes', async () => {
    const wrong = await rig(1);
    const report = await runDoctor({ configPath: wrong.configPath, config: loadConfigFile(wrong.configPath), env: wrong.env, rpcUrl: wrong.rpcUrl, socketWaitMs: 1500 });
    expect(line(report, 'rpc')).toMatchObject({ status: 'fail', message: expect.stringContaining('the endpoint of --rpc-url serves chain 1, not venue.chainId 8453') as unknown, data: { chainId: 1, expectedChainId: 8453 } });
    expect(line(report, 'balance').status).toBe('warn'); // not read (the wallet on chain 1 is not the wallet)
    expect(line(report, 'gas').status).toBe('skip');
    expect(report.ok).toBe(false);

    const right = await rig(8453);
    const good = await runDoctor({ configPath: right.configPath, config: loadConfigFile(right.configPath), env: right.env, rpcUrl: right.rpcUrl, socketWaitMs: 1500 });
    expect(line(good, 'rpc')).toMatchObject({ status: 'pass', message: 'the endpoint of --rpc-url serves chain 8453 (venue.chainId)' });
    expect(line(good, 'balance')).toMatchObject({ status: 'pass', message: expect.stringContaining('holds 500.00 USDC') as unknown });
  }, 60_000);

  it('an endpoint that does not answer: the rpc line fails naming it, the on-chain lines are not read', async () => {
    const r = await rig(8453);
    const rpcUrl = `http://127.0.0.1:${await closedLoopbackPort()}`;
    const report = await runDoctor({ configPath: r.configPath, config: loadConfigFile(r.configPath), env: r.env, rpcUrl, socketWaitMs: 1500 });
    expect(line(report, 'rpc')).toMatchObject({ status: 'fail', message: expect.stringMatching(/^the endpoint of --rpc-url does not answer \(/) as unknown });
    expect(line(report, 'balance').status).toBe('warn');
    expect(line(report, 'gas').status).toBe('skip');
  }, 60_000);
});

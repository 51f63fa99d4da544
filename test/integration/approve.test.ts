/**
 * `outcome-maker approve` through the real CLI against a real local EVM node (anvil on 127.0.0.1, chain id 8453 like
 * Base; never a public chain): the test deploys a minimal ERC-20 (USDC) and the operator-approval part of ERC-1155
 * (the conditional tokens) from test/fixtures/evm/, plus stand-in exchange and adapter contracts, and points a live
 * config's `venue.chain` at them. The listing shows every approval missing and sends nothing; `--yes` sends them;
 * a second listing shows them set; a second `--yes` sends nothing. Refusals (another chain, an address without code,
 * a sim config, no key) exit 2 before any transaction. No secret (the key, an RPC URL from the environment) is printed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { erc20Abi, keccak256, maxUint256, parseAbi, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runApprove } from '../../src/capital/approve-command.js';
import { loadConfigFile } from '../../src/config/index.js';
import { startAnvil, testContracts, type RunningAnvil } from '../support/anvil.js';
import { builtCliIsCurrent, runCliProcess, type ProcessResult } from '../support/cli-process.js';

const CHAIN_ID = 8453;
/** Deterministic test keys (never a real wallet's). */
const BOT_KEY = keccak256(toHex('outcome-maker approve test: bot wallet'));
const DEPLOYER_KEY = keccak256(toHex('outcome-maker approve test: deployer'));
const bot = privateKeyToAccount(BOT_KEY);
const ROOT = resolve(import.meta.dirname, '..', '..');
/** util-linux `script` gives the CLI a pseudo-terminal, so it asks as it does a person. */
const HAS_SCRIPT = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
const CTF_ABI = parseAbi(['function isApprovedForAll(address owner, address operator) view returns (bool)']);

let anvil: RunningAnvil;
let dir: string;
let contracts: { usdc: Hex; ctf: Hex; exchange: Hex; adapter: Hex };

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID });
  dir = mkdtempSync(join(tmpdir(), 'om-approve-'));
  const deployer = privateKeyToAccount(DEPLOYER_KEY);
  const code = testContracts();
  contracts = {
    usdc: await anvil.deploy(deployer, code.usdc),
    ctf: await anvil.deploy(deployer, code.conditionalTokens),
    // Stand-ins with code for the exchange and the NegRisk adapter (approve refuses an address without code).
    exchange: await anvil.deploy(deployer, code.conditionalTokens),
    adapter: await anvil.deploy(deployer, code.conditionalTokens),
  };
  await anvil.fund(bot.address, 10n ** 18n);
}, 60_000);

afterAll(async () => {
  await anvil?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function writeConfig(name: string, venue: Record<string, unknown> = {}, chain: Record<string, unknown> = {}): string {
  const path = join(dir, name);
  const doc = {
    venue: {
      kind: 'live',
      baseUrl: 'http://127.0.0.1:9', // never contacted: approve talks to the chain only
      socketUrl: 'ws://127.0.0.1:9',
      ...venue,
      chain: { rpcUrl: 'OM_TEST_RPC_URL', usdc: contracts.usdc, conditionalTokens: contracts.ctf, exchanges: [contracts.exchange], adapters: [contracts.adapter], ...chain },
    },
    markets: ['alpha-market'],
    strategy: { name: 'fixed-spread' },
    database: { path: ':memory:' },
  };
  writeFileSync(path, stringify(doc));
  return path;
}

function approve(args: string[], env: Record<string, string> = { OM_PRIVATE_KEY: BOT_KEY, OM_TEST_RPC_URL: anvil.rpcUrl }): Promise<ProcessResult> {
  return runCliProcess(['approve', ...args], dir, env);
}

const nonce = (): Promise<number> => anvil.client.getTransactionCount({ address: bot.address });

function expectNoSecret(result: ProcessResult): void {
  for (const secret of [BOT_KEY, BOT_KEY.slice(2), anvil.rpcUrl]) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

describe('outcome-maker approve on a local anvil chain', () => {
  it('lists, sends only when confirmed, then finds everything set and sends nothing more', async () => {
    const config = writeConfig('live.yaml');

    const listing = await approve(['--config', config]);
    expect(listing.stderr).toBe('');
    expect(listing.code).toBe(0);
    expect(listing.stdout).toContain(`wallet ${bot.address} on chain ${CHAIN_ID} (RPC from OM_TEST_RPC_URL)`);
    expect(listing.stdout).toContain(`MISSING  USDC ${contracts.usdc} allowance to exchange ${contracts.exchange}: 0 USDC (wanted unlimited)`);
    expect(listing.stdout).toContain(`MISSING  conditional tokens ${contracts.ctf} operator exchange ${contracts.exchange}: not approved`);
    expect(listing.stdout).toContain(`MISSING  conditional tokens ${contracts.ctf} operator adapter ${contracts.adapter}: not approved`);
    expect(listing.stdout).toContain('3 of 3 approvals missing');
    expect(listing.stdout).toContain('nothing sent: run again with --yes');
    expectNoSecret(listing);
    expect(await nonce()).toBe(0);

    const sent = await approve(['--config', config, '--yes']);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout.match(/^sent: /gm)?.length).toBe(3);
    expect(sent.stdout).toContain('all 3 approvals are set');
    expectNoSecret(sent);
    expect(await nonce()).toBe(3);
    expect(await anvil.client.readContract({ address: contracts.usdc, abi: erc20Abi, functionName: 'allowance', args: [bot.address, contracts.exchange] })).toBe(maxUint256);
    for (const operator of [contracts.exchange, contracts.adapter]) {
      expect(await anvil.client.readContract({ address: contracts.ctf, abi: CTF_ABI, functionName: 'isApprovedForAll', args: [bot.address, operator] })).toBe(true);
    }

    const again = await approve(['--config', config]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`set      USDC ${contracts.usdc} allowance to exchange ${contracts.exchange}: unlimited (wanted unlimited)`);
    expect(again.stdout).toContain('all 3 approvals are set');
    expect(again.stdout).not.toContain('MISSING');

    const secondYes = await approve(['--config', config, '--yes']);
    expect(secondYes.code).toBe(0);
    expect(secondYes.stdout).not.toContain('sent: ');
    expect(secondYes.stdout).toContain('all 3 approvals are set');
    expect(await nonce()).toBe(3);
  }, 180_000);

  it('a bounded allowance below what is wanted is raised; --rpc-url overrides the config', async () => {
    const spender = contracts.adapter; // a second exchange: its own USDC allowance, not yet granted
    const config = writeConfig('bounded.yaml', {}, { rpcUrl: null, exchanges: [spender], adapters: [], usdcAllowance: 2500.5 });
    const before = await nonce();
    const result = await approve(['--config', config, '--rpc-url', anvil.rpcUrl, '--yes'], { OM_PRIVATE_KEY: BOT_KEY });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`MISSING  USDC ${contracts.usdc} allowance to exchange ${spender}: 0 USDC (wanted 2500.5 USDC)`);
    expect(result.stdout).toContain(`set      conditional tokens ${contracts.ctf} operator exchange ${spender}: approved`);
    expect(result.stdout.match(/^sent: /gm)?.length).toBe(1);
    expect(await anvil.client.readContract({ address: contracts.usdc, abi: erc20Abi, functionName: 'allowance', args: [bot.address, spender] })).toBe(2_500_500_000n);
    expect(await nonce()).toBe(before + 1);
  }, 60_000);

  it('at a prompt: "no" sends nothing, "yes" sends (the confirm the CLI asks on a terminal)', async () => {
    const key = keccak256(toHex('outcome-maker approve test: prompted wallet'));
    const wallet = privateKeyToAccount(key);
    await anvil.fund(wallet.address, 10n ** 18n);
    const configPath = writeConfig('prompt.yaml', {}, { adapters: [] });
    const questions: string[] = [];
    const run = async (answer: boolean): Promise<{ code: number; out: string }> => {
      const out: string[] = [];
      const code = await runApprove({
        configPath,
        config: loadConfigFile(configPath),
        env: { OM_PRIVATE_KEY: key, OM_TEST_RPC_URL: anvil.rpcUrl },
        yes: false,
        confirm: (question) => {
          questions.push(question);
          return Promise.resolve(answer);
        },
        stdout: (text) => out.push(text),
      });
      return { code, out: out.join('') };
    };
    const declined = await run(false);
    expect(declined.code).toBe(0);
    expect(declined.out).toContain('nothing sent: not confirmed');
    expect(questions).toEqual([`send 2 approval transactions from ${wallet.address}? [y/N] `]);
    expect(await anvil.client.getTransactionCount({ address: wallet.address })).toBe(0);
    const accepted = await run(true);
    expect(accepted.code).toBe(0);
    expect(accepted.out).toContain('all 2 approvals are set');
    expect(await anvil.client.getTransactionCount({ address: wallet.address })).toBe(2);
  }, 60_000);

  it.skipIf(!HAS_SCRIPT)('on a terminal the real CLI asks, and a typed "y" sends', async () => {
    const key = keccak256(toHex('outcome-maker approve test: terminal wallet'));
    const wallet = privateKeyToAccount(key);
    await anvil.fund(wallet.address, 10n ** 18n);
    const configPath = writeConfig('terminal.yaml', {}, { adapters: [] });
    const child = spawn('script', ['-qec', `node bin/outcome-maker.mjs approve --config ${configPath}`, '/dev/null'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', HOME: dir, ...(builtCliIsCurrent() ? {} : { OUTCOME_MAKER_FROM_SOURCE: '1' }), OM_PRIVATE_KEY: key, OM_TEST_RPC_URL: anvil.rpcUrl },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((resolveExit) => child.once('exit', resolveExit));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('[y/N]') && child.stdin.writable) child.stdin.end('y\n');
    });
    expect(await exited).toBe(0);
    expect(output).toContain(`send 2 approval transactions from ${wallet.address}? [y/N]`);
    expect(output).toContain('all 2 approvals are set');
    expect(output).not.toContain(key.slice(2));
    expect(await anvil.client.getTransactionCount({ address: wallet.address })).toBe(2);
  }, 60_000);

  it('refuses, exit 2 and nothing sent: another chain, an address without code, a sim config, no key, no RPC endpoint', async () => {
    const before = await nonce();
    const otherChain = await approve(['--config', writeConfig('chain1.yaml', { chainId: 1 }), '--yes']);
    expect(otherChain.code).toBe(2);
    expect(otherChain.stderr).toContain(`the RPC endpoint serves chain ${CHAIN_ID}, the config's venue.chainId is 1`);

    const noCode = '0x000000000000000000000000000000000000dEaD';
    const empty = await approve(['--config', writeConfig('nocode.yaml', {}, { exchanges: [noCode] }), '--yes']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(`no contract at exchange ${noCode}`);

    const sim = join(dir, 'sim.yaml');
    writeFileSync(sim, stringify({ strategy: { name: 'fixed-spread' }, database: { path: ':memory:' } }));
    const simResult = await approve(['--config', sim, '--yes']);
    expect(simResult.code).toBe(2);
    expect(simResult.stderr).toContain('the simulator needs no approvals');

    const noKey = await approve(['--config', writeConfig('nokey.yaml'), '--yes'], { OM_TEST_RPC_URL: anvil.rpcUrl });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('credentials.privateKey: environment variable OM_PRIVATE_KEY is not set');

    const noRpc = await approve(['--config', writeConfig('norpc.yaml', {}, { rpcUrl: null }), '--yes']);
    expect(noRpc.code).toBe(2);
    expect(noRpc.stderr).toContain('no JSON-RPC endpoint');
    for (const result of [otherChain, empty, simResult, noKey, noRpc]) expectNoSecret(result);
    expect(await nonce()).toBe(before);
  }, 180_000);
});

/**
 * A real local EVM node for tests: anvil (npm `@foundry-rs/anvil`, its binary shipped in the per-platform optional
 * package) on 127.0.0.1 and a free port, never a public chain; plus the deployment of the test contracts of
 * test/fixtures/evm/ (bytecode committed, built from ApprovalTargets.sol) and of the real conditional-tokens
 * contract (Gnosis, compiled, from npm `@gnosis.pm/conditional-tokens-contracts`).
 *
 * Invariants: the node listens on loopback only; `stop()` ends the process it started (by its handle) and waits for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createPublicClient, createTestClient, createWalletClient, http, type Hex, type PublicClient } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { z } from 'zod';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface RunningAnvil {
  readonly rpcUrl: string;
  readonly chainId: number;
  readonly client: PublicClient;
  /** Gives `address` this much native token (wei) for gas. */
  fund(address: Hex, wei: bigint): Promise<void>;
  /** Deploys `bytecode` from `deployer` (funded first) and returns the contract's address. */
  deploy(deployer: PrivateKeyAccount, bytecode: Hex): Promise<Hex>;
  stop(): Promise<void>;
}

/** The anvil binary of this platform, from its npm package. */
export function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const require = createRequire(join(ROOT, 'package.json'));
  return join(dirname(require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

export async function startAnvil(options: { readonly chainId: number; readonly timeoutMs?: number }): Promise<RunningAnvil> {
  const child = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(options.chainId), '--accounts', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await listeningPort(child, options.timeoutMs ?? 20_000);
  const rpcUrl = `http://127.0.0.1:${port}`;
  const client = createPublicClient({ pollingInterval: 100, transport: http(rpcUrl, { retryCount: 0 }) });
  const testClient = createTestClient({ mode: 'anvil', transport: http(rpcUrl, { retryCount: 0 }) });
  const fund = (address: Hex, wei: bigint): Promise<void> => testClient.setBalance({ address, value: wei });
  return {
    rpcUrl,
    chainId: options.chainId,
    client,
    fund,
    async deploy(deployer, bytecode) {
      await fund(deployer.address, 10n ** 18n);
      const wallet = createWalletClient({ account: deployer, transport: http(rpcUrl, { retryCount: 0 }) });
      const hash = await wallet.deployContract({ abi: [], bytecode, chain: null });
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (receipt.contractAddress === null || receipt.contractAddress === undefined || receipt.status !== 'success') throw new Error(`deployment ${hash} failed`);
      return receipt.contractAddress;
    },
    stop: () => stopChild(child),
  };
}

function listeningPort(child: ChildProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolvePort, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`anvil did not listen within ${timeoutMs} ms: ${output.slice(-500)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(output);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      child.stderr?.resume();
      resolvePort(Number(match[1]));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited (${code}) before listening: ${output.slice(-500)}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}

const code = z.string().regex(/^0x[0-9a-f]+$/);
const bytecodeFile = z.object({ TestUsdc: code, TestConditionalTokens: code, TestNegRiskAdapter: code });

/** The committed bytecode of the test contracts (test/fixtures/evm/bytecode.json); the adapter's constructor takes (ctf, collateral). */
export function testContracts(): { readonly usdc: Hex; readonly conditionalTokens: Hex; readonly negRiskAdapter: Hex } {
  const parsed = bytecodeFile.parse(JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'evm', 'bytecode.json'), 'utf8')));
  return { usdc: parsed.TestUsdc as Hex, conditionalTokens: parsed.TestConditionalTokens as Hex, negRiskAdapter: parsed.TestNegRiskAdapter as Hex };
}

const artifact = z.object({ contractName: z.literal('ConditionalTokens'), bytecode: z.string().regex(/^0x[0-9a-f]+$/), compiler: z.object({ version: z.string() }) });

/** The real Gnosis ConditionalTokens (ERC-1155), deployable bytecode as its npm package ships it (no library to link). */
export function gnosisConditionalTokens(): { readonly bytecode: Hex; readonly compiler: string } {
  const require = createRequire(join(ROOT, 'package.json'));
  const parsed = artifact.parse(JSON.parse(readFileSync(require.resolve('@gnosis.pm/conditional-tokens-contracts/build/contracts/ConditionalTokens.json'), 'utf8')));
  return { bytecode: parsed.bytecode as Hex, compiler: parsed.compiler.version };
}

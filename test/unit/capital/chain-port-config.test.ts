/**
 * The chain port's options from a config and the environment: the wallet from the private key's variable, the
 * endpoint from venue.chain.rpcUrl (named `from VAR` and kept secret when read from the environment), the ceiling and
 * the time-outs; a sim config, a missing key or endpoint is a ChainPortConfigError naming the setting, never a secret.
 */
import { pino } from 'pino';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { chainCapitalPortOptions, ChainPortConfigError, liveChainPort } from '../../../src/capital/chain-port-config.js';
import { createChainCapitalPort } from '../../../src/capital/chain-port.js';
import { parseConfigText, type AppConfig } from '../../../src/config/index.js';

const KEY = keccak256(toHex('outcome-maker chain-port-config test key'));
const logger = pino({ level: 'silent' });

function config(venue: string): AppConfig {
  return parseConfigText(`venue: ${venue}\nmarkets: [m]\nstrategy: {name: fixed-spread}\n`, { source: 'test.yaml', baseDir: '/tmp' });
}
const live = (chain: string): AppConfig => config(`{kind: live, baseUrl: "http://127.0.0.1:9", socketUrl: "ws://127.0.0.1:9", chain: ${chain}}`);

describe('chainCapitalPortOptions', () => {
  it('maps the config: wallet from the key variable, the endpoint from the named variable (secret), ceiling and time-outs', () => {
    const options = chainCapitalPortOptions(live('{rpcUrl: OM_RPC_URL, maxGasPriceGwei: 0.5, receiptTimeoutSec: 30}'), { OM_PRIVATE_KEY: KEY, OM_RPC_URL: 'https://base.example/v2/provider-key' }, logger);
    expect(options).toMatchObject({ rpcUrl: 'https://base.example/v2/provider-key', rpcLabel: 'from OM_RPC_URL', chainId: 8453, maxGasPriceWei: 500_000_000n, receiptTimeoutMs: 30_000 });
    expect(options.account.address).toBe(privateKeyToAccount(KEY).address);
    expect(options.secrets).toEqual(expect.arrayContaining([KEY, KEY.slice(2), 'https://base.example/v2/provider-key']));
    const port = createChainCapitalPort(options);
    expect(port.kind).toBe('chain');
    expect(port.wallet).toBe(privateKeyToAccount(KEY).address);
  });

  it('refuses a sim config, a missing key and a missing endpoint, naming the setting and no secret', () => {
    expect(() => chainCapitalPortOptions(config('{kind: sim}'), { OM_PRIVATE_KEY: KEY }, logger)).toThrow(ChainPortConfigError);
    expect(() => chainCapitalPortOptions(live('{rpcUrl: "http://127.0.0.1:8545"}'), {}, logger)).toThrow('credentials.privateKey: environment variable OM_PRIVATE_KEY is not set');
    expect(() => chainCapitalPortOptions(live('{}'), { OM_PRIVATE_KEY: KEY }, logger)).toThrow('no JSON-RPC endpoint: set venue.chain.rpcUrl');
    expect(() => chainCapitalPortOptions(live('{rpcUrl: OM_RPC_URL}'), { OM_PRIVATE_KEY: KEY }, logger)).toThrow('environment variable OM_RPC_URL is not set');
    try {
      chainCapitalPortOptions(live('{rpcUrl: OM_RPC_URL}'), { OM_PRIVATE_KEY: KEY, OM_RPC_URL: 'ftp://secret-host/key' }, logger);
      throw new Error('accepted');
    } catch (error) {
      expect(String(error)).toContain('OM_RPC_URL is not an http(s) URL');
      expect(String(error)).not.toContain('secret-host');
    }
  });
});

describe('liveChainPort (the bot\'s choice of port)', () => {
  it('builds the chain port for a live config that can reach a chain, and says why not otherwise', () => {
    const env = { OM_PRIVATE_KEY: KEY, OM_RPC_URL: 'http://127.0.0.1:8545' };
    const built = liveChainPort(live('{rpcUrl: OM_RPC_URL}'), env, logger, { dryRun: false });
    expect(built.reason).toBeNull();
    expect(built.port?.wallet).toBe(privateKeyToAccount(KEY).address);
    expect(liveChainPort(config('{kind: sim}'), env, logger, { dryRun: false })).toEqual({ port: null, reason: 'paper: the simulator engine settles' });
    expect(liveChainPort(live('{rpcUrl: OM_RPC_URL}'), env, logger, { dryRun: true })).toEqual({ port: null, reason: 'a dry run sends no transaction' });
    expect(liveChainPort(live('{}'), env, logger, { dryRun: false }).reason).toMatch(/venue\.chain\.rpcUrl is not set/);
    const unset = liveChainPort(live('{rpcUrl: OM_RPC_URL}'), { OM_PRIVATE_KEY: KEY }, logger, { dryRun: false });
    expect(unset.port).toBeNull();
    expect(unset.reason).toMatch(/OM_RPC_URL is not set/);
    expect(unset.reason).not.toContain(KEY.slice(2));
  });
});

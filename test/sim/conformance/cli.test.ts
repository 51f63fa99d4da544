/**
 * The standalone `sim` command: one JSON line on stdout with URLs and a demo account that works as
 * printed; markets and accounts files; bad options exit 2 with a message; SIGTERM shuts it down with 0;
 * `--world crypto` (the paper world: strike ladders, oracle frames, the Hermes stand-in) and the settings flags.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { runSimCommand } from '../../../src/sim/cli.js';
import { deriveAccountCredentials } from '../../../src/sim/index.js';
import { arr, call, obj } from '../../support/sim-http.js';
import { connectMarkets } from '../../support/sim-socket.js';
import { signedOrderBody } from '../../support/sim-orders.js';

interface Started {
  readonly line: Record<string, unknown>;
  readonly stop: () => void;
  readonly done: Promise<number>;
  readonly stderr: string[];
}

function startInProcess(argv: string[]): Promise<Started> {
  return new Promise((resolve, reject) => {
    let stop: () => void = () => undefined;
    const stopSignal = new Promise<void>((r) => (stop = r));
    const stderr: string[] = [];
    let resolved = false;
    const done = runSimCommand(argv, {
      stdout: (line) => {
        resolved = true;
        resolve({ line: obj(JSON.parse(line)), stop, done, stderr });
      },
      stderr: (line) => stderr.push(line),
      stopSignal,
    });
    done.then((code) => {
      if (!resolved) reject(new Error(`sim exited ${code} before printing: ${stderr.join('\n')}`));
    }, reject);
  });
}

describe('sim command', () => {
  it('prints one JSON line whose demo account can trade as printed, and stops cleanly', async () => {
    const s = await startInProcess(['--port', '0', '--seed', '5', '--no-synthetic', '--markets', '3']);
    const line = s.line;
    expect(line['baseUrl']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(line['socketUrl']).toBe(line['baseUrl']);
    expect(line['headerPrefix']).toBe('lmts');
    const demo = obj(line['demoAccount']);
    for (const k of ['tokenId', 'secret', 'privateKey', 'address', 'profileId']) expect(demo).toHaveProperty(k);
    const baseUrl = String(line['baseUrl']);
    const slugs = arr(line['markets']).map(String);
    expect(slugs).toHaveLength(3);
    const market = obj((await call(baseUrl, 'GET', `/markets/${slugs[0]}`)).body);
    const tokens = obj(market['tokens']);
    const venue = obj(market['venue']);
    const privateKey = String(demo['privateKey']);
    if (!/^0x[0-9a-f]{64}$/.test(privateKey)) throw new Error('bad private key');
    const body = await signedOrderBody({
      privateKey: `0x${privateKey.slice(2)}`,
      ownerId: Number(demo['profileId']),
      market: { slug: slugs[0]!, yesTokenId: String(tokens['yes']), noTokenId: String(tokens['no']), venue: { exchange: String(venue['exchange']) } },
      side: 'BUY',
      priceTicks: 100,
      sizeRaw: 1_000_000,
    });
    const placed = await call(baseUrl, 'POST', '/orders', { creds: { tokenId: String(demo['tokenId']), secret: String(demo['secret']) }, body });
    expect(placed.status).toBe(201);
    s.stop();
    expect(await s.done).toBe(0);
    await expect(fetch(`${baseUrl}/maintenance/status`)).rejects.toThrow();
  });

  it('derives the same demo account from the same seed', async () => {
    const a = await startInProcess(['--seed', '9', '--no-synthetic']);
    const b = await startInProcess(['--seed', '9', '--no-synthetic']);
    expect(a.line['demoAccount']).toEqual(b.line['demoAccount']);
    expect(a.line['markets']).toEqual(b.line['markets']);
    a.stop();
    b.stop();
    expect(await Promise.all([a.done, b.done])).toEqual([0, 0]);
  });

  it('loads a YAML markets file and a JSON accounts file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sim-cli-'));
    const marketsFile = join(dir, 'markets.yaml');
    const accountsFile = join(dir, 'accounts.json');
    await writeFile(
      marketsFile,
      toYaml([
        {
          id: 7,
          slug: 'file-market',
          title: 'From a file?',
          conditionId: `0x${'ab'.repeat(32)}`,
          yesTokenId: '111',
          noTokenId: '222',
          venue: { exchange: '0xa4409D988CA2218d956BeEFD3874100F444f0DC3', adapter: '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A' },
          expiresInMs: 86_400_000,
          categories: ['Test'],
          categoryIds: [3],
          settings: { minSizeRaw: 10_000_000, maxSpreadTicks: 30, dailyRewardRaw: 0 },
        },
      ]),
    );
    const c = deriveAccountCredentials(3, 'file-account', 5);
    await writeFile(accountsFile, JSON.stringify([{ profileId: 5, address: c.address, usdc: '25.5', apiTokens: [{ tokenId: c.tokenId, secret: c.secret, scopes: ['trading'] }] }]));
    const s = await startInProcess(['--markets', marketsFile, '--accounts', accountsFile, '--no-synthetic']);
    expect(s.line['markets']).toEqual(['file-market']);
    const baseUrl = String(s.line['baseUrl']);
    const positions = await call(baseUrl, 'GET', '/portfolio/positions', { creds: { tokenId: c.tokenId, secret: c.secret } });
    expect(positions.status).toBe(200);
    s.stop();
    expect(await s.done).toBe(0);

    await writeFile(accountsFile, JSON.stringify([{ profileId: 5, address: 'nope', apiTokens: [{ tokenId: 't', secret: 'my-secret-value' }] }]));
    const stderr: string[] = [];
    const code = await runSimCommand(['--accounts', accountsFile], { stdout: () => undefined, stderr: (l) => stderr.push(l), stopSignal: Promise.resolve() });
    expect(code).toBe(2);
    expect(stderr.join('\n')).toContain('address');
    expect(stderr.join('\n')).not.toContain('my-secret-value');
  });

  it('exits 2 with a message for bad options', async () => {
    for (const argv of [['--port', 'abc'], ['--markets', '/no/such/file.yaml'], ['--noise-rate', '-1'], ['--bogus']]) {
      const stderr: string[] = [];
      const stdout: string[] = [];
      const code = await runSimCommand(argv, { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l), stopSignal: Promise.resolve() });
      expect(code, argv.join(' ')).toBe(2);
      expect(stdout).toEqual([]);
      expect(stderr.join('\n').length).toBeGreaterThan(0);
    }
  });

  it('runs standalone via tsx and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sim/cli.ts', '--port', '0', '--no-synthetic'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const lines = createInterface({ input: child.stdout });
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const line = obj(JSON.parse(first));
      const listed = await call(String(line['baseUrl']), 'GET', '/markets/active');
      expect(listed.status).toBe(200);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 20_000);
});

describe('sim --world crypto', () => {
  it('serves the paper world: strike ladders of the chosen tickers and cadences, oracle frames, Hermes, run-time listing', async () => {
    const s = await startInProcess(['--world', 'crypto', '--tickers', 'BTC,ETH', '--cadences', '15m,hourly', '--strikes-per-expiry', '2', '--no-synthetic', '--lifecycle-auth', 'authenticated', '--cancel-replace-batch-markets', 'single']);
    try {
      expect(s.line['world']).toBe('crypto');
      const baseUrl = String(s.line['baseUrl']);
      expect(s.line['hermesUrl']).toBe(`${baseUrl}/hermes`);
      const slugs = arr(s.line['markets']).map(String);
      expect(slugs).toHaveLength(2 * 2 * 2);
      for (const slug of slugs) expect(slug).toMatch(/^dollar(btc|eth)-above-dollar\d+-on-/);
      const market = obj((await call(baseUrl, 'GET', `/markets/${slugs[0]}`)).body);
      expect(obj(market['priceOracleMetadata'])['ticker']).toMatch(/^(BTC|ETH)$/);
      const hermes = await call(String(s.line['hermesUrl']), 'GET', `/v2/updates/price/latest?ids[]=${String(obj(market['priceOracleMetadata'])['pythAddress'])}`);
      expect(hermes.status).toBe(200);
      const socket = await connectMarkets(String(s.line['socketUrl']));
      try {
        socket.socket.emit('subscribe_market_prices', { marketSlugs: [slugs[0]] });
        expect(obj(await socket.waitFor('oraclePriceData', () => true, 5_000))['marketSlug']).toBe(slugs[0]);
      } finally {
        socket.close();
      }
      const listed = await call(baseUrl, 'POST', '/_sim/markets', { body: { ticker: 'ETH', settlesAt: (Math.floor(Date.now() / 60_000) + 30) * 60_000 } });
      expect(listed.status).toBe(201);
      expect(obj((await call(baseUrl, 'GET', '/_sim/settings')).body)).toMatchObject({ lifecycleAuth: 'authenticated', cancelReplaceBatchMarkets: 'single' });
    } finally {
      s.stop();
    }
    expect(await s.done).toBe(0);
  });

  it('lists generic markets beside the crypto world only when --markets is given', async () => {
    const s = await startInProcess(['--world', 'crypto', '--tickers', 'XRP', '--cadences', 'daily', '--strikes-per-expiry', '1', '--markets', '2', '--no-synthetic']);
    const slugs = arr(s.line['markets']).map(String);
    expect(slugs.filter((slug) => slug.startsWith('dollarxrp-'))).toHaveLength(1);
    expect(slugs.filter((slug) => slug.startsWith('sim-'))).toHaveLength(2);
    s.stop();
    expect(await s.done).toBe(0);
  });

  it('exits 2 for a bad world option', async () => {
    for (const argv of [['--world', 'moon'], ['--world', 'crypto', '--cadences', '5m'], ['--world', 'crypto', '--tickers', 'BTC,DOGE'], ['--strikes-per-expiry', '10'], ['--lifecycle-auth', 'maybe']]) {
      const stderr: string[] = [];
      const code = await runSimCommand(argv, { stdout: () => undefined, stderr: (l) => stderr.push(l), stopSignal: Promise.resolve() });
      expect(code, argv.join(' ')).toBe(2);
      expect(stderr.join('\n').length).toBeGreaterThan(0);
    }
  });
});

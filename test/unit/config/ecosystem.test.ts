/**
 * ecosystem.config.cjs (pm2): every app is named so `--only` can pick it (om-sim, om-<config file>), and om-sim serves
 * what the configs it serves need (`simArgs`): the generic world for the shared-limit demo's named sim-* markets, the
 * crypto world with the tickers and cadences a config's markets.select names, and the header prefix they write.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface App { readonly name: string; readonly args?: readonly string[] }
type Served = readonly { readonly file: string; readonly config: unknown }[];
const ROOT = join(import.meta.dirname, '../../..');
const ecosystem = createRequire(import.meta.url)('../../../ecosystem.config.cjs') as { apps: App[]; simArgs: (served: Served, warn?: (text: string) => void) => string[] };
const BASE = ['sim', '--port', '7070', '--seed', '1', '--drain-ms', '30000'];

describe('ecosystem.config.cjs', () => {
  it('names every app uniquely, om-sim and one om-<file> per config (what `--only` picks)', () => {
    const names = ecosystem.apps.map((app) => app.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('om-sim');
    expect(names).toContain('om-paper');
    for (const app of ecosystem.apps.filter((a) => a.args?.[0] === 'run')) expect(app.name).toBe(`om-${(app.args?.[2] ?? '').replace(/^config\//, '').replace(/\.ya?ml$/, '')}`);
  });

  it('om-sim: the generic world for the shared-limit demo (it names sim-* markets), as the file is', () => {
    expect(ecosystem.apps.find((app) => app.name === 'om-sim')?.args).toEqual(BASE);
  });

  it('om-sim: the crypto world with the tickers and cadences a served config selects, and its header prefix', () => {
    const hourly = parse(readFileSync(join(ROOT, 'config', 'hourly-crypto.example.yaml'), 'utf8')) as { venue: Record<string, unknown> };
    const onSim = { ...hourly, venue: { ...hourly.venue, baseUrl: 'http://127.0.0.1:7070', socketUrl: 'http://127.0.0.1:7070' } };
    const warnings: string[] = [];
    const shared = parse(readFileSync(join(ROOT, 'config', 'shared-limit-a.yaml'), 'utf8')) as unknown;
    const args = ecosystem.simArgs([{ file: 'hourly.yaml', config: onSim }, { file: 'shared-limit-a.yaml', config: shared }], (text) => warnings.push(text));
    expect(args).toEqual([...BASE, '--world', 'crypto', '--tickers', 'BTC,ETH', '--cadences', 'hourly', '--header-prefix', String(hourly.venue['headerPrefix'])]);
    expect(warnings).toEqual(['ecosystem: om-sim runs the crypto world for the configs that select by ticker or cadence; shared-limit-a.yaml names markets of the generic world (sim-btc-above-100k-0, sim-eth-above-5k-1), which it does not list']);
    expect(ecosystem.simArgs([{ file: 'any.yaml', config: { venue: { kind: 'live' }, markets: { select: { cadences: ['daily'] } } } }])).toEqual([...BASE, '--world', 'crypto', '--tickers', 'BTC,ETH,SOL,XRP', '--cadences', 'daily']);
  });
});

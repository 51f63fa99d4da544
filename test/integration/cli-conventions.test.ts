/**
 * One CLI convention, through the real CLI (bin/outcome-maker.mjs as a child process): `--version` from
 * package.json; `check-config` takes `--config` like every other command (and its positional form still works) and
 * says what a simulator config trades;
 * a plain `report` reads the ledger `npm start` writes (that of config/paper.yaml), never data/ledger.sqlite;
 * `doctor` on the paper config refuses with a command that works, and that command passes on the simulator;
 * no help text and no doc names a folder outside the repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_OK, main, type CliIo } from '../../src/cli.js';
import { runCliProcess } from '../support/cli-process.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const HOME = process.env['HOME'] ?? ROOT;
const cli = (args: string[]) => runCliProcess(args, HOME);

describe('outcome-maker CLI conventions', () => {
  it('--version prints package.json\'s version', async () => {
    const pkg: unknown = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const result = await cli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(typeof pkg === 'object' && pkg !== null ? Reflect.get(pkg, 'version') : 'no version');
  });

  it('check-config takes --config, and still the positional file; both at once must agree', async () => {
    const byOption = await cli(['check-config', '--config', 'config/paper.yaml']);
    expect(byOption.stderr).toBe('');
    expect(byOption.code).toBe(0);
    expect(byOption.stdout).toContain('config OK');
    // What the paper config trades, said in words; no `venue.markets: 3` to be read as the number of markets.
    expect(byOption.stdout).toContain("# venue: the simulator's crypto world lists 8 strike markets: BTC, ETH × hourly, daily expiries × 2 strikes each");
    expect(byOption.stdout).not.toMatch(/^ {2}markets: \d+$/m);
    const positional = await cli(['check-config', 'config/paper.yaml']);
    expect(positional.code).toBe(0);
    expect(positional.stdout).toBe(byOption.stdout);
    const both = await cli(['check-config', 'config/paper.yaml', '--config', 'config/fixed-spread.yaml']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give the config once');
    const neither = await cli(['check-config']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('check-config --config <file>');
  }, 90_000);

  it('a plain report reads the ledger of config/paper.yaml (where npm start writes), exactly as --config config/paper.yaml does', async () => {
    const plain = await cli(['report', '--format', 'json']);
    const explicit = await cli(['report', '--format', 'json', '--config', 'config/paper.yaml']);
    expect(plain.stderr).toContain('report: the ledger of config/paper.yaml (what `npm start` runs)');
    expect(plain.stderr).not.toContain('ledger.sqlite');
    expect(plain.code).toBe(explicit.code);
    // The same report but for the instant it was read at (`asOf`).
    const sameReport = (text: string): string => text.replace(/"asOf": "[^"]*"/g, '"asOf": "…"');
    expect(sameReport(plain.stdout)).toBe(sameReport(explicit.stdout));
    // Without a ledger yet, the error names the file `npm start` would write.
    if (plain.code !== 0) expect(plain.stderr).toContain(join(ROOT, 'data', 'paper.db'));
  }, 60_000);

  it('doctor on the paper config says how to try it on the simulator, and that command passes', async () => {
    const refused = await cli(['doctor', '--config', 'config/paper.yaml']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('doctor checks a live venue');
    const command = /To try it on the simulator: npx outcome-maker (.+)$/m.exec(refused.stderr)?.[1];
    expect(command).toBe('doctor --config config/paper.yaml --sim');
    const tried = await cli([...(command ?? '').split(' '), '--json']);
    expect(tried.stderr).toBe('');
    expect(tried.code).toBe(0);
    const report: unknown = JSON.parse(tried.stdout.slice(tried.stdout.indexOf('{')));
    expect(report).toMatchObject({ ok: true, counts: { fail: 0 } });
  }, 120_000);
});

describe('nothing names a folder outside the repository', () => {
  const OUTSIDE = /\.\.\/shared|\bshared\/(spec|venue-samples|replay-samples)|DESIGN\.md|ANCHORS\.md/;

  it('in any help text', async () => {
    const out: string[] = [];
    const io: CliIo = { stdout: (text) => out.push(text), stderr: (text) => out.push(text), env: {} };
    const commands = ['run', 'report', 'check-config', 'doctor', 'approve', 'resume', 'record', 'backtest', 'import', 'price'];
    expect(await main(['--help'], io)).toBe(EXIT_OK);
    for (const command of commands) await main([command, '--help'], io);
    await main(['import', 'polymarket', '--help'], io);
    const text = out.join('');
    for (const command of commands) expect(text).toContain(`Usage: outcome-maker ${command}`);
    expect(text).not.toMatch(OUTSIDE);
    const sim = await cli(['sim', '--help']); // the simulator's own options, parsed by its module
    expect(sim.stdout + sim.stderr).toContain('--seed');
    expect(sim.stdout + sim.stderr).not.toMatch(OUTSIDE);
  }, 60_000);

  it('in README.md, docs/ and config/', () => {
    const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), ...readdirSync(join(ROOT, 'config')).map((f) => `config/${f}`)];
    const offenders = files.filter((file) => OUTSIDE.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

/**
 * The replay the README shows, through the real CLI (a child process), on the recording the project made itself
 * (examples/sim-btc-ladder/: `outcome-maker record` on the simulator's crypto world, with its underlying): it replays
 * on a fresh clone, priced from the recorded underlying. The same recording cut short or spoiled says what was read
 * (issue 32, item 2): an error naming the file, the byte and the last whole line, exit 1; with `--allow-truncated`
 * the replay runs up to that line and the table, the JSON and report.json say "truncated at …"; a `.gz` that is not
 * gzip names the file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PeopleFigures, PeopleReport } from '../../src/replay/report.js';
import { runCliProcess } from '../support/cli-process.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const RECORDING = join(ROOT, 'examples', 'sim-btc-ladder', 'recording.ndjson.gz');
const dir = mkdtempSync(join(tmpdir(), 'om-replay-example-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = (args: readonly string[]) => runCliProcess(args, dir);
const CONFIG = join(ROOT, 'config', 'fixed-spread.yaml');

describe('backtest --replay on the project\'s own recording', () => {
  it('replays the example of the README: the markets the config selects (top 3 of 4), priced from the recorded underlying', async () => {
    const run = await cli(['backtest', '--replay', RECORDING, '--config', CONFIG, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const figures = JSON.parse(run.stdout) as PeopleFigures & { selection: unknown };
    expect(figures.market).toBe('3 markets');
    expect(figures.selection).toEqual({ rules: 'markets: select top 3 by dailyReward', joined: 3, peakJoined: 3, listed: 4, notJoined: '1× over top 3' });
    expect(figures.fills).toBeGreaterThan(0);
    expect(figures.fairMarkouts).not.toBeNull();
    expect(figures.underlyingPrices).toBeGreaterThan(0);
    expect(figures.truncated).toEqual([]);
  }, 60_000);

  it('a recording cut short is an error naming the file, the byte and its last whole line; --allow-truncated replays up to it and says so', async () => {
    const bytes = readFileSync(RECORDING);
    const cut = join(dir, 'cut.ndjson.gz');
    writeFileSync(cut, bytes.subarray(0, 20_000));
    const refused = await cli(['backtest', '--replay', cut, '--config', CONFIG]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    const said = /^backtest: (.+): cut\.ndjson\.gz truncated at byte 20000 of 20000 \(the gzip data stops without its end, as a crash or a copy cut short leaves it\), after line (\d+); lines 1-\2 can be read: replay them with --allow-truncated$/m.exec(refused.stderr);
    expect(said?.[1], refused.stderr).toBe(cut);
    const lastLine = Number(said?.[2]);
    expect(lastLine).toBeGreaterThan(1);
    const note = `cut.ndjson.gz truncated at byte 20000 of 20000 (the gzip data stops without its end, as a crash or a copy cut short leaves it), after line ${lastLine}`;

    const out = join(dir, 'report');
    const [json, table] = await Promise.all([
      cli(['backtest', '--replay', cut, '--config', CONFIG, '--allow-truncated', '--json']),
      cli(['backtest', '--replay', cut, '--config', CONFIG, '--allow-truncated', '--out', out]),
    ]);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as PeopleFigures).truncated).toEqual([note]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toBe(`recording ${note}: replayed up to that line`);
    expect(table.stdout).toMatch(new RegExp(`^recording +${note.replace(/[()]/g, '\\$&')}$`, 'm'));
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as PeopleReport;
    expect(report.figures.truncated).toEqual([note]);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(`<p id="truncated" class="headline">recording ${note}: replayed up to that line</p>`);
  }, 90_000);

  it('a .gz file that is not gzip names the file', async () => {
    const text = join(dir, 'not-gzip.ndjson.gz');
    writeFileSync(text, '{"kind":"header"}\n');
    for (const args of [[], ['--allow-truncated']]) {
      const run = await cli(['backtest', '--replay', text, '--config', CONFIG, ...args]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`backtest: ${text}: not a gzip file (it starts with bytes 7b 22 6b 69, gzip with 1f 8b)`);
    }
  }, 60_000);
});

/**
 * The rehearsal's off-window branch through its public entry (`runRehearsal`, src/rehearse/command.ts), on a pinned
 * clock and with the bot injected, so it does not depend on the minute the suite runs: the hourly example at 12:05 UTC
 * (its next ladder joinable at 12:10, 50 min before 13:00) rehearsed for 60 s says before it starts that nothing can be
 * joined and when, still starts the simulator and the bot on it (the live path, the demo account under the config's
 * credential names), and ends saying the bot placed nothing; a selection that can never join says "at all".
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { AppConfig, Environment } from '../../src/config/index.js';
import { loadConfigFile } from '../../src/config/index.js';
import { runRehearsal } from '../../src/rehearse/command.js';

const HOURLY = resolve(import.meta.dirname, '../../config/hourly-crypto.example.yaml');
const AT_12_05 = Date.UTC(2026, 0, 15, 12, 5);

interface BotCall {
  readonly config: AppConfig;
  readonly env: Environment;
  readonly durationMs: number | undefined;
}

async function rehearse(config: AppConfig, nowMs: number, durationMs: number) {
  const out: string[] = [];
  const err: string[] = [];
  const calls: BotCall[] = [];
  const code = await runRehearsal(config, {
    configPath: HOURLY,
    durationMs,
    seed: 3,
    env: {},
    nowMs,
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    runBot: async (live, options) => {
      calls.push({ config: live, env: options.env, durationMs: options.durationMs });
      // The simulator answers at the address the bot was given (what the real bot would reach).
      const answer = await fetch(`${live.venue.kind === 'live' ? live.venue.baseUrl : ''}/markets/active`);
      expect(answer.status).toBe(200);
      return 0;
    },
  });
  return { code, stdout: out.join(''), stderr: err.join(''), calls };
}

describe('rehearse: outside the window of the config\'s markets', () => {
  it('warns that nothing can be joined before 12:10 UTC, runs the bot on the simulator anyway, and reports no order placed', async () => {
    const config = loadConfigFile(HOURLY);
    const run = await rehearse(config, AT_12_05, 60_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('rehearse: the first market can be joined at 12:10:00 UTC (the hourly ladder settling at 13:00:00 UTC)');
    expect(run.stderr).toBe(
      'rehearse: warning: no market can be joined before 12:10:00 UTC (markets.select.joinBeforeSettlementSec before the hourly settlement at 13:00:00 UTC): a rehearsal of 60 s will quote nothing; run it longer (--duration 360) or after that time\n',
    );
    expect(run.stdout).toMatch(/rehearsal: the bot placed no order on the simulator\n$/);
    expect(run.calls).toHaveLength(1);
    const [call] = run.calls;
    expect(call?.durationMs).toBe(60_000);
    expect(call?.config.venue.kind).toBe('live');
    expect(call?.config.venue.kind === 'live' ? call.config.venue.baseUrl : '').toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const names = call?.config.credentials;
    expect(names).not.toBeNull();
    for (const name of [names?.apiTokenId, names?.apiSecret, names?.privateKey]) expect(call?.env[name ?? '']).toMatch(/\S/);
  }, 60_000);

  it('a rehearsal long enough to reach the join window gives no warning', async () => {
    const run = await rehearse(loadConfigFile(HOURLY), AT_12_05, 6 * 60_000);
    expect(run.stderr).toBe('');
  }, 60_000);

  it('a selection that can never join (its window shorter than the stop before settlement) says so: "at all"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'om-rehearse-never-'));
    try {
      const doc = parse(readFileSync(HOURLY, 'utf8')) as { markets: { select: Record<string, unknown> } };
      doc.markets.select['joinBeforeSettlementSec'] = 30;
      const file = join(dir, 'never.yaml');
      writeFileSync(file, stringify(doc));
      const run = await rehearse(loadConfigFile(file), AT_12_05, 60_000);
      expect(run.stdout).toContain('rehearse: no market of this world can be joined by the selection');
      expect(run.stderr).toBe('rehearse: warning: no market can be joined at all: a rehearsal of 60 s will quote nothing\n');
      expect(run.stdout).toMatch(/rehearsal: the bot placed no order on the simulator\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

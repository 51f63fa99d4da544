import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EXIT_CONFIG_INCOMPLETE, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main, type CliIo } from '../../../src/cli.js';
import type { AppConfig } from '../../../src/config/index.js';
import { openLedger } from '../../../src/ledger/index.js';
import { controlFilePath, startMetricsServer } from '../../../src/metrics/index.js';
import { recordingServerForFile } from '../../support/recording-server.js';

const dir = mkdtempSync(join(tmpdir(), 'om-cli-'));
const KEY = '22'.repeat(32);
const SECRET = Buffer.from('cli-test-secret-0123456789').toString('base64');
const FULL_ENV = { OM_API_TOKEN_ID: 'tok-cli-test', OM_API_SECRET: SECRET, OM_PRIVATE_KEY: KEY };

/** A stand-in venue on loopback that records every request it receives (and answers 500). */
const venue = recordingServerForFile(() => ({ status: 500 }));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A stand-in `runBot` that records what the CLI hands it and returns 0. */
function capturingRunBot(): { calls: { config: AppConfig; options: unknown }[]; runBot: (config: AppConfig, options: unknown) => Promise<number> } {
  const calls: { config: AppConfig; options: unknown }[] = [];
  return {
    calls,
    runBot: async (config, options) => {
      calls.push({ config, options });
      return 0;
    },
  };
}

function harness(env: Record<string, string> = {}, modules: Record<string, unknown> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const loaded: string[] = [];
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    env,
    load: async (specifier) => {
      loaded.push(specifier);
      if (!(specifier in modules)) throw new Error(`Cannot find module '${specifier}'`);
      return modules[specifier];
    },
  };
  return { io, out: () => out.join(''), err: () => err.join(''), loaded };
}

const liveConfig = (extra = ''): string => `venue: {kind: live, baseUrl: "${venue.url}", socketUrl: "ws://${venue.url.slice('http://'.length)}"}
markets: [alpha-market]
strategy: {name: fixed-spread}
metrics: {port: 0}
${extra}`;

describe('help and usage', () => {
  it('prints help with the commands and the exit codes', async () => {
    const h = harness();
    expect(await main(['--help'], h.io)).toBe(EXIT_OK);
    for (const command of ['run', 'sim', 'report', 'check-config', 'resume', 'record', 'import']) expect(h.out()).toContain(command);
    expect(h.out()).toContain('Exit codes: 0 ok, 1 runtime failure, 2 usage or config error');
  });

  it.each([['run'], ['report'], ['check-config'], ['resume'], ['record']])('%s --help exits 0', async (command) => {
    const h = harness();
    expect(await main([command, '--help'], h.io)).toBe(EXIT_OK);
    expect(h.out()).toContain(`Usage: outcome-maker ${command}`);
  });

  it('exits 2 on usage errors', async () => {
    expect(await main(['bogus'], harness().io)).toBe(EXIT_USAGE);
    expect(await main([], harness().io)).toBe(EXIT_USAGE);
    expect(await main(['run'], harness().io)).toBe(EXIT_USAGE);
    const h = harness();
    expect(await main(['run', '--config', 'x.yaml', '--duration', 'soon'], h.io)).toBe(EXIT_USAGE);
    expect(h.err()).toContain('expected a positive number of seconds');
    expect(await main(['report', '--format', 'xml'], harness().io)).toBe(EXIT_USAGE);
  });
});

describe('check-config', () => {
  it('prints the resolved config as YAML with strategy defaults and credential names', async () => {
    const path = file('check-ok.yaml', liveConfig());
    const h = harness({ OM_API_SECRET: SECRET });
    // Valid, but a credential variable is unset: `config OK, but …` and its own exit code.
    expect(await main(['check-config', path], h.io)).toBe(EXIT_CONFIG_INCOMPLETE);
    expect(h.err()).toContain('config OK, but credentials.apiTokenId: environment variable OM_API_TOKEN_ID is not set; credentials.privateKey: environment variable OM_PRIVATE_KEY is not set');
    expect(h.out()).toContain('config OK, but 2 credential variables not set');
    const printed: unknown = parse(h.out());
    expect(printed).toMatchObject({
      venue: { kind: 'live', baseUrl: venue.url },
      credentials: { apiSecret: 'OM_API_SECRET', privateKey: 'OM_PRIVATE_KEY' },
      strategy: { name: 'fixed-spread', params: { bidSpread: 0.02, levels: 1 } },
    });
    expect(h.out()).toContain('# credentials.apiSecret: OM_API_SECRET is set');
    expect(h.out()).toContain('# credentials.privateKey: OM_PRIVATE_KEY is not set');
    expect(h.out()).toContain('# warning: credentials.privateKey: environment variable OM_PRIVATE_KEY is not set');
    expect(h.out()).not.toContain(SECRET);
  });

  it('exits 0 with a plain "config OK" once every credential variable is set', async () => {
    const path = file('check-all-set.yaml', liveConfig());
    const h = harness({ OM_API_TOKEN_ID: 'tok', OM_API_SECRET: SECRET, OM_PRIVATE_KEY: `0x${'11'.repeat(32)}` });
    expect(await main(['check-config', path], h.io)).toBe(EXIT_OK);
    expect(h.out()).toContain(': config OK, strategy');
    expect(h.err()).toBe('');
  });

  it('exits 2 listing every problem with its path and value', async () => {
    const path = file('check-bad.yaml', 'strategy: {name: fixed-spread, params: {levels: 0}}\nrisk: {maxOpenOrders: "many", extra: 1}\n');
    const h = harness();
    expect(await main(['check-config', path], h.io)).toBe(EXIT_USAGE);
    expect(h.err()).toContain('risk.maxOpenOrders: expected a number, got a string (got "many")');
    expect(h.err()).toContain('risk.extra: unknown key (got 1)');
    expect(h.out()).toBe('');
  });

  it('exits 2 on bad strategy params and on an unknown strategy', async () => {
    const params = harness();
    expect(await main(['check-config', file('check-params.yaml', 'strategy: {name: fixed-spread, params: {levels: 0}}\n')], params.io)).toBe(EXIT_USAGE);
    expect(params.err()).toContain('strategy.params.levels');
    const unknown = harness();
    expect(await main(['check-config', file('check-unknown.yaml', 'strategy: {name: nope}\n')], unknown.io)).toBe(EXIT_USAGE);
    expect(unknown.err()).toContain('strategy.name: cannot load the strategy');
  });

  it('exits 2 on a missing file', async () => {
    const h = harness();
    expect(await main(['check-config', join(dir, 'missing.yaml')], h.io)).toBe(EXIT_USAGE);
    expect(h.err()).toContain('(file): file not found');
  });
});

describe('run', () => {
  it('refuses an invalid config before loading the bot or sending anything', async () => {
    const h = harness(FULL_ENV);
    const path = file('run-bad.yaml', liveConfig('orders: {botTag: "NOT OK"}\n'));
    expect(await main(['run', '--config', path], h.io)).toBe(EXIT_USAGE);
    expect(h.err()).toContain('orders.botTag');
    expect(h.loaded).toEqual([]);
    expect(venue.requests.length).toBe(0);
  });

  it('refuses to start without the credentials, naming the variables', async () => {
    const h = harness({ OM_API_TOKEN_ID: 'tok' });
    expect(await main(['run', '--config', file('run-nocreds.yaml', liveConfig())], h.io)).toBe(EXIT_USAGE);
    expect(h.err()).toContain('credentials.apiSecret: environment variable OM_API_SECRET is not set');
    expect(h.err()).toContain('credentials.privateKey: environment variable OM_PRIVATE_KEY is not set');
    expect(h.loaded).toEqual([]);
    expect(venue.requests.length).toBe(0);
  });

  it('hands the validated, frozen config and the options to runBot and returns its exit code', async () => {
    const { calls, runBot } = capturingRunBot();
    const path = file('run-ok.yaml', liveConfig());
    const h = harness(FULL_ENV, { './app.js': { runBot } });
    expect(await main(['run', '--config', path, '--dry-run', '--duration', '1.5'], h.io)).toBe(EXIT_OK);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.options).toEqual({ dryRun: true, durationMs: 1500, configPath: path });
    expect(Object.isFrozen(calls[0]?.config)).toBe(true);
    expect(calls[0]?.config.markets.slugs).toEqual(['alpha-market']);

    const failing = harness(FULL_ENV, { './app.js': { runBot: async () => 1 } });
    expect(await main(['run', '--config', path], failing.io)).toBe(EXIT_FAILURE);
    const weird = harness(FULL_ENV, { './app.js': { runBot: async () => 'yes' } });
    expect(await main(['run', '--config', path], weird.io)).toBe(EXIT_FAILURE);
  });

  it('--metrics-port, else OM_METRICS_PORT, moves metrics.port; a bad one is a usage error naming it', async () => {
    const { calls, runBot } = capturingRunBot();
    const path = file('run-port.yaml', liveConfig());
    expect(await main(['run', '--config', path, '--metrics-port', '9500'], harness(FULL_ENV, { './app.js': { runBot } }).io)).toBe(EXIT_OK);
    expect(await main(['run', '--config', path], harness({ ...FULL_ENV, OM_METRICS_PORT: '9600' }, { './app.js': { runBot } }).io)).toBe(EXIT_OK);
    expect(await main(['run', '--config', path, '--metrics-port', '0'], harness({ ...FULL_ENV, OM_METRICS_PORT: '9600' }, { './app.js': { runBot } }).io)).toBe(EXIT_OK);
    expect(calls.map((c) => [c.config.metrics.port, c.options])).toEqual([
      [9500, { dryRun: false, configPath: path, metricsPortSetBy: '--metrics-port' }],
      [9600, { dryRun: false, configPath: path, metricsPortSetBy: 'OM_METRICS_PORT' }],
      [0, { dryRun: false, configPath: path, metricsPortSetBy: '--metrics-port' }],
    ]);
    expect(calls.every((c) => Object.isFrozen(c.config) && Object.isFrozen(c.config.metrics))).toBe(true);
    const badFlag = harness(FULL_ENV, { './app.js': { runBot } });
    expect(await main(['run', '--config', path, '--metrics-port', '70000'], badFlag.io)).toBe(EXIT_USAGE);
    expect(badFlag.err()).toContain("option '--metrics-port <port>' argument '70000' is invalid. expected a port number, 0 to 65535");
    const badEnv = harness({ ...FULL_ENV, OM_METRICS_PORT: 'ninety' }, { './app.js': { runBot } });
    expect(await main(['run', '--config', path], badEnv.io)).toBe(EXIT_USAGE);
    expect(badEnv.err()).toContain('run: OM_METRICS_PORT="ninety": expected a port number, 0 to 65535');
    expect(calls).toHaveLength(3);
  });

  it('exits 1 with the reason when the bot module cannot be loaded or throws', async () => {
    const path = file('run-noapp.yaml', liveConfig());
    const missing = harness(FULL_ENV);
    expect(await main(['run', '--config', path], missing.io)).toBe(EXIT_FAILURE);
    expect(missing.err()).toContain('cannot load ./app.js');
    const throwing = harness(FULL_ENV, {
      './app.js': {
        runBot: async () => {
          throw new Error('exchange unreachable');
        },
      },
    });
    expect(await main(['run', '--config', path], throwing.io)).toBe(EXIT_FAILURE);
    expect(throwing.err()).toContain('exchange unreachable');
  });
});

describe('sim', () => {
  it('passes every argument through, options and --help included', async () => {
    const seen: string[][] = [];
    const h = harness({}, {
      './sim/cli.js': {
        runSimCommand: async (argv: string[]) => {
          seen.push(argv);
          return 3;
        },
      },
    });
    expect(await main(['sim', '--seed', '5', '--markets=4', 'extra', '--help'], h.io)).toBe(3);
    expect(seen).toEqual([['--seed', '5', '--markets=4', 'extra', '--help']]);
  });
});

describe('report', () => {
  it('prints the ledger report from --db, and from the config\'s database.path', async () => {
    const db = join(dir, 'ledger-report.db');
    openLedger({ path: db }).close();
    const h = harness();
    expect(await main(['report', '--db', db, '--format', 'json', '--since', '24h'], h.io)).toBe(EXIT_OK);
    expect(() => {
      JSON.parse(h.out());
    }).not.toThrow();
    const viaConfig = harness();
    const config = file('report.yaml', `strategy: {name: fixed-spread}\ndatabase: {path: ledger-report.db}\n`);
    expect(await main(['report', '--config', config, '--format', 'csv'], viaConfig.io)).toBe(EXIT_OK);
    expect(viaConfig.out().length).toBeGreaterThan(0);
  });

  it('exits 2 on bad arguments and 1 when the ledger does not exist', async () => {
    expect(await main(['report', '--db', 'x.db', '--since', 'last tuesday'], harness().io)).toBe(EXIT_USAGE);
    expect(await main(['report', '--db', 'x.db', '--config', 'y.yaml'], harness().io)).toBe(EXIT_USAGE);
    const h = harness();
    expect(await main(['report', '--db', join(dir, 'no-such.db')], h.io)).toBe(EXIT_FAILURE);
    expect(h.err()).toContain('no ledger database');
  });
});

describe('resume', () => {
  it('lifts the pause of the bot found through the config', async () => {
    const config = file('resume.yaml', 'strategy: {name: fixed-spread}\ndatabase: {path: resume-bot.db}\nmetrics: {port: 0}\n');
    const filePath = controlFilePath(join(dir, 'resume-bot.db'));
    if (filePath === null) throw new Error('expected a control file path');
    let paused = true;
    const server = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      registry: new Registry(),
      readiness: () => ({ feedConnected: true, staleMarkets: [], paused }),
      control: {
        filePath,
        resume: () => {
          const wasPaused = paused;
          paused = false;
          return { resumed: true, wasPaused };
        },
      },
    });
    try {
      const h = harness();
      expect(await main(['resume', '--config', config], h.io)).toBe(EXIT_OK);
      expect(h.out()).toBe('resumed: quoting restarts\n');
      expect(paused).toBe(false);
      const again = harness();
      expect(await main(['resume', '--config', config], again.io)).toBe(EXIT_OK);
      expect(again.out()).toContain('was not paused');
    } finally {
      await server.close();
    }
    const gone = harness();
    expect(await main(['resume', '--config', config], gone.io)).toBe(EXIT_FAILURE);
    expect(gone.err()).toContain('the bot is not running');
  });

  it('exits 2 when the config gives the bot no control endpoint', async () => {
    const off = harness();
    expect(await main(['resume', '--config', file('resume-off.yaml', 'strategy: {name: x}\nmetrics: {enabled: false}\n')], off.io)).toBe(EXIT_USAGE);
    expect(off.err()).toContain('metrics.enabled: false');
    const memory = harness();
    expect(await main(['resume', '--config', file('resume-mem.yaml', 'strategy: {name: x}\ndatabase: {path: ":memory:"}\n')], memory.io)).toBe(EXIT_USAGE);
  });
});

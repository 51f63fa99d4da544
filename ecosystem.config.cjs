// pm2 ecosystem: one app per strategy file in config/ (each a bot instance, named om-<file name>), plus the standalone
// simulator (om-sim). `npx pm2 start ecosystem.config.cjs` on a fresh clone brings every one of them online; one app
// (or a few) with `--only`: `npx pm2 start ecosystem.config.cjs --only om-paper`, or the shared-limit demo with
// `--only om-sim,om-redis,om-shared-limit-a,om-shared-limit-b`. Paper configs trade on their own embedded simulator,
// so nothing here reaches a real exchange. om-sim serves the configs whose venue is http://127.0.0.1:7070: it runs the
// crypto world (the tickers and cadences their markets.select names) when one of them selects by those rules, and
// their header prefix when they write one. A live config is added by copying
// config/live.example.yaml to config/<name>.yaml (files named *.example.yaml are skipped). Every config needs
// its own metrics.port (and database.path) so all apps can run at once. Configs that trade on `om-sim` as a live venue
// (config/shared-limit-*.yaml) get its demo credentials; when a config asks for a shared rate limiter on loopback
// (rateLimits.shared.redis), `om-redis` (redis-server, 127.0.0.1, no persistence) runs too: docs/rate-limits.md.
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const { spawnSync } = require('node:child_process');

const DEFAULT_SHUTDOWN_BUDGET_MS = 10000; // the least shutdown.budgetMs a config that does not set it gets
const DEFAULT_MIN_TIME_MS = 320; // rateLimits.minTimeMs when a config does not set it (src/config/schema.ts)
const SIM_PORT = 7070;
const SIM_SEED = 1;
const SIM_DRAIN_MS = 30000;
const configDir = path.join(__dirname, 'config');
const configs = fs
  .readdirSync(configDir)
  .filter((file) => /\.ya?ml$/.test(file) && !file.includes('.example.'))
  .sort();

/** The parsed YAML of a config (null when unreadable: `run` reports the config error itself). */
function readConfig(file) {
  try {
    return YAML.parse(fs.readFileSync(path.resolve(configDir, file), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The config's shutdown budget: the bot cancels its orders and exits within it (at the latest 0.5 s after). Unset, it
 * is derived as the bot derives it (src/config/shutdown-budget.ts; test/unit/config/shutdown-budget.test.ts holds the
 * two together): one cancel request per market the config can quote, at its rateLimits.minTimeMs, plus 3 s.
 */
function shutdownBudgetMs(file) {
  const config = readConfig(file);
  const budget = config?.shutdown?.budgetMs;
  if (Number.isInteger(budget) && budget > 0) return budget;
  const markets = config?.markets ?? {};
  const select = markets.select ?? null;
  const slugs = Array.isArray(markets.slugs) ? markets.slugs.length : 0;
  const groups = Array.isArray(markets.groups) ? markets.groups.length : 0;
  const bound = Number.isInteger(select?.max) ? select.max : groups > 0 ? null : slugs + (Number.isInteger(select?.top) ? select.top : 0);
  const minTimeMs = Number.isInteger(config?.rateLimits?.minTimeMs) ? config.rateLimits.minTimeMs : DEFAULT_MIN_TIME_MS;
  return bound === null ? DEFAULT_SHUTDOWN_BUDGET_MS : Math.max(DEFAULT_SHUTDOWN_BUDGET_MS, bound * (minTimeMs + 30) + 3000);
}

/**
 * The loopback Redis port a config's shared rate limiter asks for (rateLimits.shared.redis: a URL, or the name of
 * an environment variable holding one), or null when it asks for none or for a Redis elsewhere (the user runs it).
 */
function loopbackRedisPort(file) {
  const written = readConfig(file)?.rateLimits?.shared?.redis;
  if (typeof written !== 'string') return null;
  const url = /^[A-Z_][A-Z0-9_]*$/.test(written) ? process.env[written] : written;
  if (typeof url !== 'string' || !URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (!/^rediss?:$/.test(parsed.protocol) || !['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) return null;
  return Number(parsed.port || 6379);
}

/**
 * A config that trades on the standalone simulator (`om-sim`, 127.0.0.1:7070) as a live venue gets the simulator's
 * demo credentials in its environment: derived from the seed exactly as the simulator does
 * (src/sim/server/demo-account.ts, checked by test/unit/config/shared-credentials.test.ts). Simulator credentials only.
 */
function simDemoEnv(file) {
  const config = readConfig(file);
  if (config?.venue?.kind !== 'live' || config.venue.baseUrl !== `http://127.0.0.1:${SIM_PORT}`) return {};
  const { keccak256, stringToHex } = require('viem');
  const { privateKeyToAccount } = require('viem/accounts');
  const derive = (label) => keccak256(stringToHex(`outcome-maker-sim/${label}/${SIM_SEED}`));
  const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  let key = derive('demo/key');
  for (let round = 1; BigInt(key) === 0n || BigInt(key) >= n; round++) key = derive(`demo/key/${round}`);
  privateKeyToAccount(key); // a valid key, or throw here rather than in the bot
  const hex = derive('demo/token').slice(2, 34).split('');
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const t = hex.join('');
  const credentials = config.credentials ?? {};
  return {
    [credentials.apiTokenId ?? 'OM_API_TOKEN_ID']: `${t.slice(0, 8)}-${t.slice(8, 12)}-${t.slice(12, 16)}-${t.slice(16, 20)}-${t.slice(20, 32)}`,
    [credentials.apiSecret ?? 'OM_API_SECRET']: Buffer.from(derive('demo/secret').slice(2), 'hex').toString('base64'),
    [credentials.privateKey ?? 'OM_PRIVATE_KEY']: key,
  };
}

const SIM_TICKERS = ['BTC', 'ETH', 'SOL', 'XRP']; // the simulator's crypto world (src/sim/engine/underlying.ts)
const SIM_CADENCES = ['15m', 'hourly', 'daily', 'weekly']; // src/sim/engine/cadences.ts
const SIM_DEFAULT_CADENCES = ['hourly', 'daily'];

/** A config that trades on om-sim (127.0.0.1:7070) as a live venue. */
function servedBySim(config) {
  return config?.venue?.kind === 'live' && config.venue.baseUrl === `http://127.0.0.1:${SIM_PORT}`;
}

/**
 * om-sim's arguments for the configs it serves ({file, config} each): the crypto world when one of them selects by
 * rule (markets.select with tickers or cadences: the live venue's strike ladders), with every ticker and cadence they
 * name (all of them where one names none); the header prefix they write (the simulator's default when none does).
 * Pure but for the warnings (two prefixes; slugs of the generic world, which the crypto world does not list).
 */
function simArgs(served, warn = (text) => console.warn(text)) {
  const args = ['sim', '--port', String(SIM_PORT), '--seed', String(SIM_SEED), '--drain-ms', String(SIM_DRAIN_MS)];
  const selects = served.map(({ config }) => config?.markets?.select ?? null).filter((s) => s !== null && (Array.isArray(s.tickers) || Array.isArray(s.cadences)));
  if (selects.length > 0) {
    const tickers = new Set(selects.flatMap((s) => (Array.isArray(s.tickers) ? s.tickers : SIM_TICKERS)));
    const cadences = new Set(selects.flatMap((s) => (Array.isArray(s.cadences) ? s.cadences : SIM_DEFAULT_CADENCES)));
    args.push('--world', 'crypto', '--tickers', SIM_TICKERS.filter((t) => tickers.has(t)).join(','), '--cadences', SIM_CADENCES.filter((c) => cadences.has(c)).join(','));
    for (const { file, config } of served) {
      const slugs = Array.isArray(config?.markets?.slugs) ? config.markets.slugs : [];
      if (slugs.some((slug) => /^sim-/.test(slug))) warn(`ecosystem: om-sim runs the crypto world for the configs that select by ticker or cadence; ${file} names markets of the generic world (${slugs.join(', ')}), which it does not list`);
    }
  }
  const prefixes = [...new Set(served.map(({ config }) => config?.venue?.headerPrefix).filter((p) => typeof p === 'string'))];
  if (prefixes.length === 1) args.push('--header-prefix', prefixes[0]);
  if (prefixes.length > 1) warn(`ecosystem: the configs om-sim serves write different header prefixes (${prefixes.join(', ')}); it answers on its default`);
  return args;
}

/** redis-server on PATH (apt-get install redis-server), or null. */
function redisServerPath() {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() !== '' ? found.stdout.trim() : null;
}

// One redis-server per loopback port some config's shared rate limiter asks for (pm2 delete all stops it too).
const redisPorts = [...new Set(configs.map(loopbackRedisPort).filter((port) => port !== null))].sort();
const redisBinary = redisPorts.length > 0 ? redisServerPath() : null;
if (redisPorts.length > 0 && redisBinary === null) {
  console.warn('ecosystem: a config asks for a shared rate limiter on loopback but redis-server is not installed (apt-get install redis-server); its bots run on their fallback share');
}

const common = {
  cwd: __dirname,
  script: 'bin/outcome-maker.mjs',
  interpreter: 'node',
  exec_mode: 'fork',
  instances: 1,
  autorestart: true,
  exp_backoff_restart_delay: 1000, // 1 s, doubling up to 15 s, reset after a stable run
  stop_exit_codes: [2], // exit 2 = config or usage error: restarting would fail the same way
  max_memory_restart: '512M',
  merge_logs: true,
  time: false,
  env: { NODE_ENV: 'production', OM_LOG_FORMAT: 'json' },
};

module.exports = {
  apps: [
    {
      ...common,
      name: 'om-sim',
      // Stopped together with its bots (`pm2 delete all`): it keeps serving until they have canceled their orders
      // and disconnected (3 s quiet), at most SIM_DRAIN_MS.
      args: simArgs(configs.map((file) => ({ file, config: readConfig(file) })).filter(({ config }) => servedBySim(config))),
      wait_ready: false,
      kill_timeout: SIM_DRAIN_MS + 5000,
    },
    ...(redisBinary === null
      ? []
      : redisPorts.map((port) => ({
          name: redisPorts.length === 1 ? 'om-redis' : `om-redis-${port}`,
          script: redisBinary,
          interpreter: 'none',
          // Loopback only, nothing on disk: it holds leases of a few seconds, nothing worth keeping.
          args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
          exec_mode: 'fork',
          instances: 1,
          autorestart: true,
          kill_timeout: 3000,
          merge_logs: true,
        }))),
    ...configs.map((file) => ({
      ...common,
      name: `om-${path.basename(file).replace(/\.ya?ml$/, '')}`,
      args: ['run', '--config', path.join('config', file)],
      env: { ...common.env, ...simDemoEnv(file) },
      wait_ready: true, // the bot sends process.send('ready') after its first quote cycle
      listen_timeout: 60000,
      // pm2 stops with SIGINT, then SIGKILL after kill_timeout: above the bot's budget, so a stop is always clean.
      kill_timeout: shutdownBudgetMs(file) + 3000,
    })),
  ],
};

// For the test that holds this derivation and the bot's together (not enumerable: pm2 reads only `apps`).
Object.defineProperty(module.exports, 'shutdownBudgetMs', { value: shutdownBudgetMs, enumerable: false });
Object.defineProperty(module.exports, 'simArgs', { value: simArgs, enumerable: false });

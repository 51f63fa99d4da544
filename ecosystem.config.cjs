// pm2 ecosystem: one app per strategy file in config/ (each a bot instance), plus the standalone simulator.
// `npx pm2 start ecosystem.config.cjs` on a fresh clone brings them online; paper configs trade on their own
// embedded simulator, so nothing here reaches a real exchange. A live config is added by copying
// config/live.example.yaml to config/<name>.yaml (files named *.example.yaml are skipped). Every config needs
// its own metrics.port (and database.path) so all apps can run at once.
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const DEFAULT_SHUTDOWN_BUDGET_MS = 10000; // shutdown.budgetMs when a config does not set it (src/config/schema.ts)
const configDir = path.join(__dirname, 'config');
const configs = fs
  .readdirSync(configDir)
  .filter((file) => /\.ya?ml$/.test(file) && !file.includes('.example.'))
  .sort();

/** The config's shutdown budget: the bot cancels its orders and exits within it (at the latest 0.5 s after). */
function shutdownBudgetMs(file) {
  try {
    const budget = YAML.parse(fs.readFileSync(path.join(configDir, file), 'utf8'))?.shutdown?.budgetMs;
    return Number.isInteger(budget) && budget > 0 ? budget : DEFAULT_SHUTDOWN_BUDGET_MS;
  } catch {
    return DEFAULT_SHUTDOWN_BUDGET_MS; // `run` reports the config error itself
  }
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
      args: ['sim', '--port', '7070', '--seed', '1'],
      wait_ready: false,
      kill_timeout: 5000,
    },
    ...configs.map((file) => ({
      ...common,
      name: `om-${path.basename(file).replace(/\.ya?ml$/, '')}`,
      args: ['run', '--config', path.join('config', file)],
      wait_ready: true, // the bot sends process.send('ready') after its first quote cycle
      listen_timeout: 60000,
      // pm2 stops with SIGINT, then SIGKILL after kill_timeout: above the bot's budget, so a stop is always clean.
      kill_timeout: shutdownBudgetMs(file) + 3000,
    })),
  ],
};

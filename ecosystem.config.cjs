// pm2 ecosystem: one app per strategy file in config/ (each a bot instance), plus the standalone simulator.
// `npx pm2 start ecosystem.config.cjs` on a fresh clone brings them online; paper configs trade on their own
// embedded simulator, so nothing here reaches a real exchange. A live config is added by copying
// config/live.example.yaml to config/<name>.yaml (files named *.example.yaml are skipped).
const fs = require('node:fs');
const path = require('node:path');

const SHUTDOWN_BUDGET_MS = 8000; // must match shutdown.budgetMs in the configs (the bot cancels within it)
const configDir = path.join(__dirname, 'config');
const configs = fs
  .readdirSync(configDir)
  .filter((file) => /\.ya?ml$/.test(file) && !file.includes('.example.'))
  .sort();

const common = {
  cwd: __dirname,
  script: 'bin/outcome-maker.mjs',
  interpreter: 'node',
  exec_mode: 'fork',
  instances: 1,
  autorestart: true,
  exp_backoff_restart_delay: 1000, // 1 s, doubling up to 15 s, reset after a stable run
  max_memory_restart: '512M',
  kill_timeout: SHUTDOWN_BUDGET_MS + 4000, // above the bot's own shutdown budget: pm2 never SIGKILLs a clean stop
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
    },
    ...configs.map((file) => ({
      ...common,
      name: `om-${path.basename(file).replace(/\.ya?ml$/, '')}`,
      args: ['run', '--config', path.join('config', file)],
      wait_ready: true, // the bot sends process.send('ready') after its first quote cycle
      listen_timeout: 60000,
    })),
  ],
};

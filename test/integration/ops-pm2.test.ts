/**
 * pm2 on this checkout: `pm2 start ecosystem.config.cjs` brings every app online (each bot sends 'ready' after its
 * first quote cycle), and `pm2 delete all` stops them cleanly: each paper bot cancels its orders on its embedded
 * simulator ('orders canceled' with clean: true) and exits 0.
 *
 * Opt-in (it starts every app of the ecosystem on their configured ports, 7070, 6380 (om-redis) and 9464-9471, and takes about a
 * minute): OM_PM2_TEST=1 npx vitest run test/integration/ops-pm2.test.ts
 * A private PM2_HOME in a temp dir is used and its daemon killed at the end: a user's own pm2 is never touched.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { runNodeScript, type ProcessResult } from '../support/cli-process.js';
import { httpGet, pollFor, ROOT } from './ops-support.js';

const enabled = process.env['OM_PM2_TEST'] === '1';
const PM2 = join(ROOT, 'node_modules', 'pm2', 'bin', 'pm2');

const processList = z.array(
  z.looseObject({
    name: z.string(),
    pm2_env: z.looseObject({
      status: z.string(),
      restart_time: z.number(),
      pm_out_log_path: z.string(),
      args: z.union([z.array(z.string()), z.string()]).optional(),
    }),
  }),
);
type ProcessList = z.infer<typeof processList>;

function pm2(home: string, args: readonly string[], timeoutMs = 120_000): Promise<ProcessResult> {
  return runNodeScript(PM2, args, {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', PM2_HOME: home },
    until: 'exit',
    timeoutMs,
    name: `pm2 ${args.join(' ')}`,
  });
}

async function list(home: string): Promise<ProcessList> {
  const answer = await pm2(home, ['jlist'], 30_000);
  return processList.parse(JSON.parse(answer.stdout.slice(answer.stdout.indexOf('['))));
}

/** The metrics port of each bot config the ecosystem starts (config/*.yaml but *.example.*). */
function metricsPorts(): number[] {
  const configSchema = z.looseObject({ metrics: z.looseObject({ port: z.number().int() }) });
  return readdirSync(join(ROOT, 'config'))
    .filter((file) => /\.ya?ml$/.test(file) && !file.includes('.example.'))
    .map((file) => configSchema.parse(parse(readFileSync(join(ROOT, 'config', file), 'utf8'))).metrics.port);
}

/** Whether something listens on 127.0.0.1:port. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolveOpen) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolveOpen(true);
    });
    socket.once('error', () => resolveOpen(false));
  });
}

describe.skipIf(!enabled)('pm2 (OM_PM2_TEST=1)', () => {
  it('pm2 start brings every app online (ready after its first quote cycle); pm2 delete all stops them cleanly', async () => {
    const home = mkdtempSync(join(tmpdir(), 'om-pm2-'));
    try {
      const started = await pm2(home, ['start', 'ecosystem.config.cjs'], 150_000);
      expect(started.code).toBe(0);

      const apps = await pollFor(
        'every app online',
        async () => {
          const current = await list(home);
          return current.length > 0 && current.every((app) => app.pm2_env.status === 'online') ? current : undefined;
        },
        120_000,
        1000,
      );
      const names = apps.map((app) => app.name).sort();
      expect(names).toContain('om-sim');
      expect(names).toContain('om-paper');
      // om-redis: redis-server for the shared rate limiter of config/shared-limit-*.yaml (when installed).
      const bots = apps.filter((app) => app.name !== 'om-sim' && !app.name.startsWith('om-redis'));
      const redisApp = apps.find((app) => app.name === 'om-redis');
      if (redisApp) {
        // The two shared-limit bots use it: neither fell back to its local share.
        for (const name of ['om-shared-limit-a', 'om-shared-limit-b']) {
          const app = apps.find((a) => a.name === name);
          expect(app, name).toBeDefined();
          expect(readFileSync(app!.pm2_env.pm_out_log_path, 'utf8'), name).not.toContain('redis unreachable');
        }
      }
      expect(bots.length).toBeGreaterThanOrEqual(4);
      for (const app of bots) {
        // 'quoting' is logged right before process.send('ready'): pm2's wait_ready saw it.
        const log = readFileSync(app.pm2_env.pm_out_log_path, 'utf8');
        expect(log, app.name).toContain('"msg":"quoting"');
        expect(app.pm2_env.restart_time, app.name).toBe(0);
      }
      const ports = metricsPorts();
      expect(new Set(ports).size).toBe(ports.length); // every app can run at once
      for (const port of ports) expect((await httpGet(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      const deleted = await pm2(home, ['delete', 'all'], 60_000);
      expect(deleted.code).toBe(0);
      for (const app of bots) {
        const log = readFileSync(app.pm2_env.pm_out_log_path, 'utf8');
        const canceled = log.split('\n').filter((line) => line.includes('"msg":"orders canceled"'));
        expect(canceled.length, app.name).toBe(1);
        expect(canceled[0], app.name).toContain('"clean":true');
        expect(log, app.name).toContain('outcome-maker summary');
      }
      expect(await list(home)).toEqual([]);
      // pm2 delete all leaves no Redis behind.
      if (redisApp) expect(await portOpen(6380)).toBe(false);
    } finally {
      await pm2(home, ['kill'], 60_000).catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    }
  }, 300_000);
});

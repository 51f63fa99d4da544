import { mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  controlFilePath,
  createMetrics,
  evaluateReadiness,
  lintExposition,
  readControlFile,
  requestResume,
  startMetricsServer,
  type MetricsServer,
  type ReadinessState,
  type ResumeOutcome,
} from '../../../src/metrics/index.js';

const dir = mkdtempSync(join(tmpdir(), 'om-metrics-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let servers: MetricsServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const READY: ReadinessState = { feedConnected: true, staleMarkets: [], paused: false };

async function start(options: { readiness?: () => ReadinessState; resume?: () => ResumeOutcome | Promise<ResumeOutcome>; file?: string } = {}) {
  const registry = new Registry();
  const metrics = createMetrics({ registry, collectDefault: false });
  const server = await startMetricsServer({
    host: '127.0.0.1',
    port: 0,
    registry,
    readiness: options.readiness ?? (() => READY),
    ...(options.resume ? { control: { filePath: options.file ?? join(dir, 'bot.db.control.json'), resume: options.resume } } : {}),
  });
  servers.push(server);
  return { server, metrics };
}

describe('evaluateReadiness', () => {
  it('is ready only with the feed up, fresh books and no pause', () => {
    expect(evaluateReadiness(READY)).toEqual({ ready: true, reasons: [] });
    expect(evaluateReadiness({ feedConnected: false, staleMarkets: ['a', 'b'], paused: true, pauseReason: 'daily loss limit' })).toEqual({
      ready: false,
      reasons: ['feed disconnected', 'stale books: a, b', 'quoting paused: daily loss limit'],
    });
  });
});

describe('startMetricsServer', () => {
  it('serves /metrics in the Prometheus text format', async () => {
    const { server, metrics } = await start();
    metrics.bookUpdated('alpha');
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toContain('outcome_maker_book_updates_total{market="alpha"} 1');
    expect(lintExposition(text)).toEqual([]);
  });

  it('answers /healthz with 200', async () => {
    const { server } = await start({ readiness: () => ({ feedConnected: false, staleMarkets: [], paused: true }) });
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 when ready and 503 with the reasons when not', async () => {
    let state: ReadinessState = READY;
    const { server } = await start({ readiness: () => state });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, reasons: [] });
    state = { feedConnected: true, staleMarkets: ['alpha'], paused: true, pauseReason: 'kill switch' };
    const unready = await fetch(`${server.url}/readyz`);
    expect(unready.status).toBe(503);
    expect(await unready.json()).toEqual({ ready: false, reasons: ['stale books: alpha', 'quoting paused: kill switch'] });
  });

  it('answers 503 when the readiness check itself fails, and keeps serving', async () => {
    const { server } = await start({
      readiness: () => {
        throw new Error('boom');
      },
    });
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ ready: false, reasons: ['readiness check failed'] });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('answers 404 for unknown paths and 405 for wrong methods', async () => {
    const { server } = await start();
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    const post = await fetch(`${server.url}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect((await fetch(`${server.url}/control/resume`, { method: 'POST' })).status).toBe(404);
  });

  it('fails to start on a port in use, with the listen error', async () => {
    const { server } = await start();
    await expect(startMetricsServer({ host: '127.0.0.1', port: server.port, registry: new Registry(), readiness: () => READY })).rejects.toThrow(/EADDRINUSE/);
  });
});

describe('resume control', () => {
  it('writes an owner-only control file while running and removes it on close', async () => {
    const file = join(dir, 'a.db.control.json');
    const { server } = await start({ resume: () => ({ resumed: true, wasPaused: true }), file });
    const control = readControlFile(file);
    expect(control).toMatchObject({ pid: process.pid, url: server.url });
    expect(control.token).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await server.close();
    expect(existsSync(file)).toBe(false);
  });

  it('resumes through the control file, and rejects a wrong token', async () => {
    const file = join(dir, 'b.db.control.json');
    let paused = true;
    const { server } = await start({
      file,
      resume: () => {
        const wasPaused = paused;
        paused = false;
        return { resumed: true, wasPaused };
      },
    });
    expect(await requestResume(file)).toEqual({ ok: true, wasPaused: true });
    expect(paused).toBe(false);
    expect(await requestResume(file)).toEqual({ ok: true, wasPaused: false });
    const forged = await fetch(`${server.url}/control/resume`, { method: 'POST', headers: { authorization: `Bearer ${'0'.repeat(64)}` } });
    expect(forged.status).toBe(401);
    expect((await fetch(`${server.url}/control/resume`)).status).toBe(405);
  });

  it('reports a refused resume (409) with the bot\'s reason', async () => {
    const file = join(dir, 'c.db.control.json');
    await start({ file, resume: async () => ({ resumed: false, reason: 'daily loss limit still exceeded' }) });
    expect(await requestResume(file)).toEqual({ ok: false, reason: 'refused', message: 'daily loss limit still exceeded' });
  });

  it('says the bot is not running when there is no control file, or its process is gone', async () => {
    expect(await requestResume(join(dir, 'none.control.json'))).toMatchObject({ ok: false, reason: 'not-running' });
    const stale = join(dir, 'stale.control.json');
    writeFileSync(stale, JSON.stringify({ pid: 999_999, url: 'http://127.0.0.1:1', token: 'a'.repeat(64), startedAt: 'x' }));
    expect(await requestResume(stale, { isAlive: () => false })).toEqual({
      ok: false,
      reason: 'not-running',
      message: `stale control file ${stale}: process 999999 is not running`,
    });
    writeFileSync(stale, '{"pid": "nope"}');
    expect(await requestResume(stale)).toEqual({ ok: false, reason: 'failed', message: `control file ${stale}: does not have the expected fields` });
  });

  it('puts the control file next to the ledger; none for an in-memory ledger', () => {
    expect(controlFilePath('/var/lib/bot/paper.db')).toBe('/var/lib/bot/paper.db.control.json');
    expect(controlFilePath(':memory:')).toBeNull();
  });
});

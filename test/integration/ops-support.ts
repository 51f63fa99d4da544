/**
 * Helpers of the operations tests (ops-*.test.ts): the running bot's operations endpoint (URL from its log,
 * polling, the Prometheus text), config rewrites, a loopback TCP proxy that can cut the market feed, and the
 * per-test teardown of what a test started (`stopAfterEach`).
 *
 * Everything listens on 127.0.0.1 port 0 and is closed by the test that opened it. Polling, never fixed sleeps.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterEach } from 'vitest';
import { z } from 'zod';
import type { RunningSimulator } from '../../src/sim/index.js';
import type { BotProcess } from '../support/bot-process.js';
import { runNodeScript, type ProcessResult } from '../support/cli-process.js';
import { poll } from '../support/poll.js';

/** The checkout's root (where bin/, config/ and ecosystem.config.cjs are). */
export const ROOT = resolve(import.meta.dirname, '..', '..');

/** Polls `probe` every `intervalMs` until it returns a non-undefined value; rejects after `timeoutMs` (`what`, or what it returns then, says what was awaited). */
export async function pollFor<T>(what: string | (() => string), probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000, intervalMs = 100): Promise<T> {
  return poll(probe, {
    timeoutMs,
    intervalMs,
    failure: (lastError) => {
      const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      return `timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}${detail}`;
    },
  });
}

const logLine = z.looseObject({ msg: z.string() });
const listeningLine = z.looseObject({ msg: z.literal('metrics server listening'), url: z.string().regex(/^http:\/\/127\.0\.0\.1:\d+$/) });

/** The JSON log lines of the bot (non-JSON lines, e.g. the summary, are skipped). */
export function jsonLines(bot: BotProcess): { msg: string; [key: string]: unknown }[] {
  const out: { msg: string; [key: string]: unknown }[] = [];
  for (const line of bot.lines) {
    if (!line.startsWith('{')) continue;
    try {
      const parsed = logLine.safeParse(JSON.parse(line));
      if (parsed.success) out.push(parsed.data);
    } catch {
      // a partial line: ignore
    }
  }
  return out;
}

/** True for a JSON log line with this `msg`. */
export const hasMsg = (msg: string) => (line: string): boolean => line.includes(`"msg":"${msg}"`);

/** The metrics server's URL, from its 'metrics server listening' log line. */
export async function metricsUrlOf(bot: BotProcess, timeoutMs = 20_000): Promise<string> {
  const line = await bot.waitForLine(hasMsg('metrics server listening'), timeoutMs);
  return listeningLine.parse(JSON.parse(line)).url;
}

export interface HttpAnswer {
  readonly status: number;
  readonly text: string;
}

export async function httpGet(url: string, timeoutMs = 3000): Promise<HttpAnswer> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  return { status: response.status, text: await response.text() };
}

const readinessBody = z.object({ ready: z.boolean(), reasons: z.array(z.string()) });
export type ReadinessBody = z.infer<typeof readinessBody>;

export async function readiness(baseUrl: string): Promise<{ status: number; body: ReadinessBody }> {
  const answer = await httpGet(`${baseUrl}/readyz`);
  return { status: answer.status, body: readinessBody.parse(JSON.parse(answer.text)) };
}

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of a Prometheus text exposition (label values without escapes, which the bot never emits). */
export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"/g)) labels[pair[1] ?? ''] = pair[2] ?? '';
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

/** Samples of one metric family (a histogram's _bucket/_sum/_count included). */
export function familySamples(samples: readonly Sample[], family: string): Sample[] {
  return samples.filter((s) => s.name === family || s.name === `${family}_bucket` || s.name === `${family}_sum` || s.name === `${family}_count`);
}

/** Sum of a metric's samples whose labels include `labels`. */
export function sumOf(samples: readonly Sample[], name: string, labels: Readonly<Record<string, string>> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((total, s) => total + s.value, 0);
}

export async function scrape(baseUrl: string): Promise<{ text: string; samples: Sample[] }> {
  const answer = await httpGet(`${baseUrl}/metrics`);
  if (answer.status !== 200) throw new Error(`/metrics answered ${answer.status}`);
  return { text: answer.text, samples: parseSamples(answer.text) };
}

/** Rewrites one YAML config file in place. */
export function editConfig(path: string, edit: (config: Record<string, unknown>) => void): void {
  const config = z.record(z.string(), z.unknown()).parse(parse(readFileSync(path, 'utf8')));
  edit(config);
  writeFileSync(path, stringify(config));
}

/** A loopback TCP proxy (for the market feed) that can cut every connection and refuse new ones. */
export interface FeedProxy {
  /** `http://127.0.0.1:<port>`, to use as venue.socketUrl. */
  readonly url: string;
  /** Destroys every open connection and refuses new ones until `unblock()`. */
  block(): void;
  unblock(): void;
  close(): Promise<void>;
}

export async function startFeedProxy(targetPort: number): Promise<FeedProxy> {
  const open = new Set<Socket>();
  let blocked = false;
  const server: Server = createServer((client) => {
    if (blocked) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    open.add(client);
    open.add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    block() {
      blocked = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    unblock() {
      blocked = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export type CliResult = ProcessResult;

/** Runs `outcome-maker <args>` (this checkout's bin) to completion. */
export function runCli(args: readonly string[], options: { env?: Readonly<Record<string, string>>; timeoutMs?: number } = {}): Promise<CliResult> {
  return runNodeScript(join(ROOT, 'bin', 'outcome-maker.mjs'), args, {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...options.env },
    until: 'exit',
    timeoutMs: options.timeoutMs ?? 20_000,
    name: `outcome-maker ${args.join(' ')}`,
  });
}

/** What the current test started, handed over as it starts each one; `stopAfterEach` stops them after the test. */
export interface StartedByTest {
  sim: RunningSimulator | null;
  bot: BotProcess | null;
  proxy: FeedProxy | null;
}

/**
 * Registers, in the calling test file, an afterEach that stops what the test handed over: the bot (SIGKILL) first,
 * then the feed proxy, the simulator last; and clears them for the next test.
 */
export function stopAfterEach(): StartedByTest {
  const started: StartedByTest = { sim: null, bot: null, proxy: null };
  afterEach(async () => {
    await started.bot?.stop('SIGKILL');
    started.bot = null;
    await started.proxy?.close();
    started.proxy = null;
    await started.sim?.close();
    started.sim = null;
  });
  return started;
}

/**
 * Many bots, one account (issue 16, items 1–2): THREE bots as separate processes (the real CLI), three config files
 * on the simulator's ONE demo account and one API token, sharing one rate limit through a real redis-server on a free
 * loopback port (rateLimits.shared). Two bots quote the same market; the third starts while the others quote.
 *
 * Over ≥ 60 s of trading: no answer is a 429 the bots are to blame for (one a stall of the simulator's loop explains is
 * its own late stamp, chaos-invariants.ts), the combined request rate is near the venue's limit when the bots have
 * that much to send (never above it), every bot keeps quoting. Both phases run beside a CPU-burning neighbour process (the
 * machine loaded on purpose: issue 39). Then Redis is stopped mid-run: every bot falls back to
 * its share (metric, /readyz degraded) and still gets no 429; Redis started again: every bot is back on the shared
 * limit. At the end no bot has cancelled, adopted or booked
 * another's orders: no `DELETE /orders/all`, and each bot's ledger equals the venue's trades of its own orders.
 *
 * Wall time about 100 s. Skipped (with a message) only when redis-server is not installed; CI installs it.
 *
 * Why the phases stay 35 s and 25 s (issue 24 asked whether 20 s at the same rate would prove the same): no. What
 * is proven is "no 429 among all the requests three contending bots send", and a 429 comes from one unlucky pair of
 * consecutive starts, so the proof's strength is the number of such pairs (about 80 in phase 1 at ~2.3/s combined);
 * 20 s would halve it, and the rate bound ("near the limit") is an average over the window that needs the bots'
 * requote bursts and quiet spells both in it. The suite runs files side by side, so this file's ~100 s is not on the
 * critical path. The timeout only catches a hang: three bot start-ups under parallel load plus both phases and stops.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import type { RequestLogEntry, RunningSimulator } from '../../src/sim/index.js';
import { simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig, isQuotingLine, type BotProcess } from '../support/bot-process.js';
import { rateLimitViolations, type LoopStall } from '../support/chaos-invariants.js';
import { startStallRecorder } from '../support/chaos-stalls.js';
import { REDIS_MISSING, redisServerBinary, startTestRedis, type TestRedis } from '../support/redis-server.js';
import { metricsUrlOf, pollFor, readiness, scrape, sumOf } from './ops-support.js';

/**
 * A neighbour that takes a core (issue 39 item 8: the Redis-stopped phase once failed under another engineer's load):
 * a process at the bots' priority, for the phases; killed by the test. It keeps the machine at least one core short
 * for everything else: in each 100 ms slice it spins if, in the slice before, the machine left a whole core idle (or,
 * while it spins, still half a core beside it), and sleeps otherwise. Alone on a machine it burns a core throughout,
 * as a plain busy loop did. Beside a suite that keeps both cores busy it sleeps: under `npm test` the compute-only
 * files run beside the integration run and fill the idle time, and a burner that counted its own CPU as left over
 * would hold a core from them for its whole 90 s, about 60 s of CPU on the suite's critical path; the bots meet the
 * integration files beside them instead. Alone on a machine it burns a core
 * throughout, as a plain busy loop did; beside the rest of the suite, which keeps both cores busy, it mostly sleeps
 * instead of taking a third of the CPU from the files beside it (measured: docs/testing.md, issue 40).
 */
const BURNER = `
const os = require('node:os');
const SLICE_MS = 100;
const idleMs = () => os.cpus().reduce((sum, cpu) => sum + cpu.times.idle, 0);
let idle = idleMs(), burn = true;
for (;;) {
  const until = Date.now() + SLICE_MS;
  if (burn) while (Date.now() < until) Math.sqrt(Math.random());
  else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SLICE_MS);
  const nowIdle = idleMs();
  burn = nowIdle - idle >= (burn ? SLICE_MS / 2 : SLICE_MS);
  idle = nowIdle;
}
`;
function startCpuBurner(): ChildProcess {
  const burner = spawn(process.execPath, ['-e', BURNER], { stdio: 'ignore' });
  burner.unref();
  return burner;
}

const hasRedis = redisServerBinary() !== null;
if (!hasRedis) console.warn(REDIS_MISSING);

const TAGS = ['alpha', 'beta', 'gamma'] as const;
const VENUE_MIN_INTERVAL_MS = 300;
const MIN_TIME_MS = 400;

interface RunningBot {
  readonly tag: string;
  readonly process: BotProcess;
  readonly dbPath: string;
  readonly metricsUrl: string;
}

/**
 * Requests the venue answered for the demo token since `sinceSeq`, its 429s, and the 429s the bots are to blame for:
 * all but those a recorded stall of this process's loop explains (the simulator stamped the previous start late:
 * chaos-invariants.ts `rateLimitViolations`, the rule of every in-process 429 check).
 */
/** The token's admitted requests just before `sinceSeq`: what the first 429 of a window is judged against. */
function admittedBefore(sim: RunningSimulator, sinceSeq: number): RequestLogEntry[] {
  return sim.control
    .requestLog({ sinceSeq: Math.max(0, sinceSeq - 20) })
    .filter((e) => e.seq <= sinceSeq && e.tokenId === sim.demoAccount.tokenId && e.status !== 429)
    .slice(-3);
}

function venueTraffic(sim: RunningSimulator, sinceSeq: number, stalls: readonly LoopStall[]): { requests: number; rateLimited: number; unexplained: string[]; lastSeq: number } {
  const entries = sim.control.requestLog({ sinceSeq }).filter((e) => e.tokenId === sim.demoAccount.tokenId);
  return {
    requests: entries.length,
    rateLimited: entries.filter((e) => e.status === 429).length,
    // Judged with the admitted requests just before the window: a window's first 429 has a previous request too.
    unexplained: rateLimitViolations([...admittedBefore(sim, sinceSeq), ...entries], { minIntervalMs: VENUE_MIN_INTERVAL_MS, stalls }).violations,
    lastSeq: Math.max(sinceSeq, ...sim.control.requestLog({ sinceSeq }).map((e) => e.seq)),
  };
}

/** For each 429 since `sinceSeq`: ms since the previous admitted start of the token (diagnostics for a failure). */
function rateLimitGaps(sim: RunningSimulator, sinceSeq: number): number[] {
  const entries = sim.control.requestLog({ sinceSeq }).filter((e) => e.tokenId === sim.demoAccount.tokenId);
  const gaps: number[] = [];
  let lastAdmitted: number | null = admittedBefore(sim, sinceSeq).at(-1)?.atMs ?? null;
  for (const entry of entries) {
    if (entry.status === 429) gaps.push(lastAdmitted === null ? -1 : Math.round(entry.atMs - lastAdmitted));
    else lastAdmitted = entry.atMs;
  }
  return gaps;
}

/** Waits `ms`, sampling every second which bots have a live order on the venue; returns the tags seen quoting. */
async function watchQuoting(sim: RunningSimulator, markets: (tag: string) => readonly string[], ms: number): Promise<Set<string>> {
  const seen = new Set<string>();
  const until = Date.now() + ms;
  while (Date.now() < until) {
    for (const tag of TAGS) {
      const live = markets(tag).flatMap((slug) => sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE']));
      if (live.some((o) => o.clientOrderId?.startsWith(`${tag}-`) === true)) seen.add(tag);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Math.max(0, until - Date.now()))));
  }
  return seen;
}

function lastSeq(sim: RunningSimulator): number {
  return Math.max(0, ...sim.control.requestLog().map((e) => e.seq));
}

async function requestsOf(bot: RunningBot): Promise<number> {
  return sumOf((await scrape(bot.metricsUrl)).samples, 'outcome_maker_http_requests_total');
}

/** The venue's trades of one tag's orders (signed size per token) and the bot's ledger balances. */
function ledgerMatchesVenue(sim: RunningSimulator, bot: RunningBot): { venue: Map<string, number>; ledger: Map<string, number>; foreignFills: string[] } {
  const venue = new Map<string, number>();
  const foreignIds = new Set<string>();
  for (const fill of sim.engine.accountTrades(sim.demoAccount.profileId)) {
    if (fill.clientOrderId?.startsWith(`${bot.tag}-`) !== true) {
      foreignIds.add(fill.orderId);
      continue;
    }
    const key = `${fill.marketSlug}|${fill.outcome}`;
    venue.set(key, (venue.get(key) ?? 0) + (fill.side === 'BUY' ? fill.sizeRaw : -fill.sizeRaw));
  }
  for (const [key, value] of [...venue]) if (value === 0) venue.delete(key);
  const ledger = new Map<string, number>();
  const store = openLedger({ path: bot.dbPath, mustExist: true });
  try {
    for (const balance of store.tokenBalances()) if (balance.balanceRaw !== 0) ledger.set(`${balance.marketSlug}|${balance.token}`, balance.balanceRaw);
    const foreignFills = [...foreignIds].filter((id) => store.fillsForOrder(id).length > 0);
    return { venue, ledger, foreignFills };
  } finally {
    store.close();
  }
}

describe.skipIf(!hasRedis)('three bots, one account, one shared rate limit (real redis-server)', () => {
  it('no 429 over ≥ 60 s, near the venue limit, every bot quoting; Redis stopped: fallback, still no 429', async () => {
    const redis: TestRedis = await startTestRedis();
    // The simulator stamps arrivals on this process's loop: its stalls tell a late stamp from a bot's short gap.
    const loop = startStallRecorder();
    const sim = await startProcessSimulator({
      seed: 23,
      markets: 12,
      // A lively venue (fast fair-value moves, many takers): the bots requote often and have requests to send.
      synthetic: { stepMs: 400, fairValue: { volatilityPerSqrtHour: 4, jumpsPerHour: 120 }, noise: { ratePerMinute: 120 }, makers: { requoteThresholdTicks: 1 } },
    });
    const bots: RunningBot[] = [];
    let burner: ChildProcess | null = null;
    try {
      const slugs = simMarketSlugs(sim, 4);
      if (slugs.length < 4) throw new Error('the simulator lists fewer than four tradable markets');
      // alpha and beta quote the same two markets; gamma two others.
      const shared = slugs.slice(0, 2);
      const other = slugs.slice(2, 4);
      const start = async (tag: string, markets: string[]): Promise<RunningBot> => {
        const { configPath, dbPath } = writeBotConfig(sim, {
          markets,
          botTag: tag,
          // A busy strategy: two levels a side, tight, so each bot has requests to send.
          strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 2, levelSpacing: 0.01, orderSize: 5 } },
          // 400 ms between starts: the venue (here a simulator sharing the test process's loaded event loop) counts
          // ARRIVALS; measured arrival jitter on a loaded 2-core machine is up to ~60 ms, more than the 20 ms of the
          // 320 ms default. The shared limiter spaces SENDS by exactly this (see docs/rate-limits.md).
          rateLimits: { minTimeMs: MIN_TIME_MS, shared: { redis: redis.url } },
          // Three bots stopping at once share one budget of starts: up to 3 × 8 cancels at 400 ms each.
          shutdown: { budgetMs: 20_000 },
        });
        const process = spawnBot(sim, configPath);
        const bot = { tag, process, dbPath, metricsUrl: await metricsUrlOf(process, 60_000) };
        bots.push(bot);
        return bot;
      };
      // Two bots on the same market, at once; the third joins while they quote.
      const first = await Promise.all([start(TAGS[0], shared), start(TAGS[1], shared)]);
      await Promise.all(first.map((bot) => bot.process.waitForLine(isQuotingLine, 40_000)));
      const third = await start(TAGS[2], other);
      await third.process.waitForLine(isQuotingLine, 40_000);

      // The machine loaded on purpose from here to the end of phase 2: one core kept busy by a neighbour process.
      burner = startCpuBurner();
      // Phase 1: shared through Redis, 35 s.
      const phase1From = lastSeq(sim);
      const requestsBefore = await Promise.all(bots.map(requestsOf));
      const phase1Start = Date.now();
      const marketsOf = (tag: string): readonly string[] => (tag === TAGS[2] ? other : shared);
      const quoting1 = await watchQuoting(sim, marketsOf, 35_000);
      const phase1 = venueTraffic(sim, phase1From, loop.stalls);
      const phase1Seconds = (Date.now() - phase1Start) / 1000;
      const perBot = (await Promise.all(bots.map(requestsOf))).map((n, i) => (n - requestsBefore[i]!) / phase1Seconds);
      const combined = phase1.requests / phase1Seconds;
      console.info(`multi-bot shared: ${phase1.requests} requests in ${phase1Seconds.toFixed(1)} s = ${combined.toFixed(2)}/s combined (venue limit ${(1000 / VENUE_MIN_INTERVAL_MS).toFixed(2)}/s), per bot ${perBot.map((r) => r.toFixed(2)).join(' / ')}, 429s ${phase1.rateLimited}`);
      console.info(`429 gaps since the previous admitted start (ms): ${JSON.stringify(rateLimitGaps(sim, phase1From))}; fallbacks: ${JSON.stringify(bots.flatMap((b) => b.process.lines.filter((l) => l.includes('shared rate limiter')).map((l) => `${b.tag}: ${l.slice(0, 300)}`)))}`);
      expect(phase1.unexplained).toEqual([]);
      // Never above the venue's limit; near it (the bots quote busily, so the limiter is the bottleneck much of the time).
      expect(combined).toBeLessThanOrEqual(1000 / VENUE_MIN_INTERVAL_MS + 0.05);
      expect(combined).toBeGreaterThan((0.6 * 1000) / MIN_TIME_MS);
      for (const rate of perBot) expect(rate).toBeGreaterThan(0.05);
      for (const bot of bots) {
        expect((await readiness(bot.metricsUrl)).status, bot.tag).toBe(200);
        expect(quoting1.has(bot.tag), `${bot.tag} quoting`).toBe(true);
      }

      // Phase 2: Redis stopped mid-run: every bot falls back (metric, /readyz degraded) and gets no 429.
      await redis.stop();
      await pollFor(
        'every bot in fallback',
        async () => {
          const states = await Promise.all(bots.map(async (bot) => sumOf((await scrape(bot.metricsUrl)).samples, 'outcome_maker_shared_limiter_fallback')));
          return states.every((v) => v === 1) ? true : undefined;
        },
        10_000,
        200,
      );
      const phase2From = lastSeq(sim);
      const quoting2 = await watchQuoting(sim, marketsOf, 25_000);
      const phase2 = venueTraffic(sim, phase2From, loop.stalls);
      console.info(`multi-bot fallback: ${phase2.requests} requests in 25 s = ${(phase2.requests / 25).toFixed(2)}/s combined, 429s ${phase2.rateLimited}`);
      console.info(`429 gaps in fallback (ms): ${JSON.stringify(rateLimitGaps(sim, phase2From))}`);
      expect(phase2.unexplained).toEqual([]);
      for (const bot of bots) {
        const samples = (await scrape(bot.metricsUrl)).samples;
        expect(sumOf(samples, 'outcome_maker_shared_limiter_fallbacks_total'), bot.tag).toBeGreaterThanOrEqual(1);
        const ready = await readiness(bot.metricsUrl);
        expect(ready.status, bot.tag).toBe(200);
        expect(bot.process.lines.some((line) => line.includes('shared rate limiter: redis unreachable')), bot.tag).toBe(true);
        expect(quoting2.has(bot.tag), `${bot.tag} quoting in fallback`).toBe(true);
      }
      const degraded = await fetch(`${bots[0]!.metricsUrl}/readyz`).then((r) => r.json() as Promise<{ degraded?: string[] }>);
      expect(degraded.degraded?.join(' ')).toMatch(/shared limiter in fallback/);

      burner.kill('SIGKILL');
      burner = null;

      // Redis back: every bot returns to the shared limit (and stops at full speed: on its fallback share a bot with
      // many orders can need longer than its shutdown budget to cancel them all).
      await redis.start();
      await pollFor(
        'every bot back on the shared limit',
        async () => {
          const states = await Promise.all(bots.map(async (bot) => sumOf((await scrape(bot.metricsUrl)).samples, 'outcome_maker_shared_limiter_fallback')));
          return states.every((v) => v === 0) ? true : undefined;
        },
        15_000,
        200,
      );
      for (const bot of bots) {
        expect(bot.process.lines.some((line) => line.includes('shared rate limiter: redis reachable again')), bot.tag).toBe(true);
        expect((await fetch(`${bot.metricsUrl}/readyz`).then((r) => r.json() as Promise<{ degraded?: string[] }>)).degraded, bot.tag).toBeUndefined();
      }

      // Stop: each bot cancels its own orders; nobody cancelled all, adopted or booked another's orders.
      const stops = await Promise.all(bots.map((bot) => bot.process.stop('SIGTERM', 30_000)));
      for (const [i, stop] of stops.entries()) {
        const bot = bots[i]!;
        expect(stop.code, `${bot.tag}: ${bot.process.lines.filter((l) => /"level":"(warn|error|fatal)"/.test(l)).slice(-4).join('\n')}`).toBe(0);
      }
      expect(sim.control.requestLog().filter((e) => e.method === 'DELETE' && e.path === '/orders/all')).toEqual([]);
      for (const bot of bots) {
        expect(bot.process.lines.filter((line) => line.includes('"msg":"adopted live orders"') && /"adopted":[1-9]/.test(line)), bot.tag).toEqual([]);
        const { venue, ledger, foreignFills } = ledgerMatchesVenue(sim, bot);
        expect(ledger, `${bot.tag}: ledger = venue trades of its own orders`).toEqual(venue);
        expect(foreignFills, `${bot.tag}: no fill of another bot's orders booked`).toEqual([]);
      }
    } finally {
      burner?.kill('SIGKILL');
      loop.stop();
      await Promise.all(bots.map((bot) => bot.process.stop('SIGKILL', 5000).catch(() => undefined)));
      await sim.close();
      await redis.stop();
    }
  }, 240_000);
});

/**
 * Markets that come and go (src/markets/market-discovery.ts, src/markets/market-roster.ts) on a manual clock: a lifecycle
 * frame reads the new market and joins it (registered, then adopted); a joined market leaves at its stop before
 * settlement (drained, then released) and when it resolves; a listing poll replaces the candidates but keeps joined
 * markets; a failed read changes nothing; a failed join is rolled back and retried; AMM markets are ignored; nothing
 * runs after stop.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { MarketDiscovery, type DiscoveryCandidate, type DiscoveryOptions } from '../../../src/markets/market-discovery.js';
import { MarketRoster, type RosterSteps } from '../../../src/markets/market-roster.js';
import type { Market } from '../../../src/exchange/wire.js';

const log = pino({ level: 'silent' });
const T0 = Date.parse('2026-11-26T18:50:00.000Z');
const HOUR = 3_600_000;
const STOP_MS = 60_000;

function market(slug: string, expirationMs: number, extra: Partial<Market> = {}): Market {
  return {
    id: slug.length,
    slug,
    title: slug,
    conditionId: null,
    negRiskRequestId: null,
    status: 'FUNDED',
    expired: false,
    expirationMs,
    tokens: { yes: `${slug}-yes`, no: `${slug}-no` },
    venue: { exchange: '0xa4409D988CA2218d956BeEFD3874100F444f0DC3', adapter: null },
    isRewardable: true,
    settings: null,
    tradeType: 'clob',
    marketType: 'single',
    winningOutcomeIndex: null,
    payoutNumerators: null,
    resolved: false,
    categories: [],
    collateral: null,
    groupSlug: null,
    metadata: {},
    description: null,
    tags: [],
    priceOracleMetadata: null,
    ...extra,
  } as Market;
}

interface Rig {
  readonly clock: ManualClock;
  readonly steps: string[];
  readonly roster: MarketRoster;
  readonly discovery: MarketDiscovery;
  readonly venue: Map<string, Market>;
  listing: Market[] | Error;
  failAdopt: Set<string>;
}

function rig(initial: readonly Market[], select?: DiscoveryOptions['select']): Rig {
  const clock = new ManualClock(T0);
  const steps: string[] = [];
  const venue = new Map<string, Market>();
  const r = { listing: [] as Market[] | Error, failAdopt: new Set<string>() };
  const rosterSteps: RosterSteps = {
    register: (m) => void steps.push(`register ${m.slug}`),
    adopt: (m) => {
      steps.push(`adopt ${m.slug}`);
      return Promise.resolve({ adopted: 0, canceled: 0, ok: !r.failAdopt.has(m.slug) });
    },
    drain: (slug) => {
      steps.push(`drain ${slug}`);
      return Promise.resolve({ clean: true });
    },
    unregister: (slug) => void steps.push(`unregister ${slug}`),
  };
  const roster = new MarketRoster(rosterSteps, log, initial.map((m) => m.slug));
  const selectAll = ({ candidates }: { readonly candidates: readonly DiscoveryCandidate[] }): { selected: Market[]; skipped: Map<string, string> } => ({
    selected: candidates.map((c) => c.market),
    skipped: new Map(),
  });
  const discovery = new MarketDiscovery(
    {
      scheduler: clock,
      log,
      listActive: () => (r.listing instanceof Error ? Promise.reject(r.listing) : Promise.resolve(r.listing)),
      details: (slug) => {
        const m = venue.get(slug);
        return m === undefined ? Promise.reject(new Error(`404 ${slug}`)) : Promise.resolve(m);
      },
      select: select ?? selectAll,
      fairOf: () => null,
      leaveAtMs: (m) => (m.expirationMs === null ? null : m.expirationMs - STOP_MS),
      roster,
      pollIntervalMs: 60_000,
      evaluateIntervalMs: 5_000,
    },
    initial,
  );
  return Object.assign(r, { clock, steps, roster, discovery, venue });
}

/** Lets the promise chains of the code under test run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
}

describe('MarketDiscovery and MarketRoster', () => {
  it('joins a market announced by the lifecycle channel: details read, registered, then adopted', async () => {
    const daily = market('daily', T0 + 20 * HOUR);
    const r = rig([daily]);
    const next = market('btc-2000', T0 + HOUR + 10 * 60_000);
    r.venue.set(next.slug, next);
    await r.discovery.created({ slug: next.slug, title: next.title, type: 'CLOB', groupSlug: null, categoryIds: [], createdAtMs: T0 });
    r.clock.advance(250);
    await settle();
    expect(r.steps).toEqual(['register btc-2000', 'adopt btc-2000']);
    expect([...r.roster.current()].sort()).toEqual(['btc-2000', 'daily']);
  });

  it('ignores AMM markets and markets it cannot read', async () => {
    const r = rig([]);
    await r.discovery.created({ slug: 'amm', title: 'amm', type: 'AMM', groupSlug: null, categoryIds: [], createdAtMs: T0 });
    await r.discovery.created({ slug: 'missing', title: 'missing', type: 'CLOB', groupSlug: null, categoryIds: [], createdAtMs: T0 });
    r.clock.advance(10_000);
    await settle();
    expect(r.steps).toEqual([]);
    expect(r.discovery.candidateCount()).toBe(0);
  });

  it('leaves a joined market at its stop before settlement, drained before it is released', async () => {
    const hourly = market('btc-1900', T0 + 10 * 60_000);
    const r = rig([hourly]);
    r.discovery.start();
    r.clock.advance(5 * 60_000);
    await settle();
    expect(r.steps).toEqual([]);
    r.clock.advance(4 * 60_000 + 5_000);
    await settle();
    expect(r.steps).toEqual(['drain btc-1900', 'unregister btc-1900']);
    expect(r.roster.current().size).toBe(0);
    await r.discovery.stop();
  });

  it('a listing poll adds new markets, drops unlisted candidates but keeps joined ones; a failed poll changes nothing', async () => {
    const joined = market('joined', T0 + 5 * HOUR);
    const r = rig([joined]);
    r.listing = [market('a', T0 + 2 * HOUR), market('b', T0 + 2 * HOUR)];
    await r.discovery.poll();
    await settle();
    expect(r.steps).toEqual(['register a', 'adopt a', 'register b', 'adopt b']);
    expect([...r.roster.current()].sort()).toEqual(['a', 'b', 'joined']);
    r.listing = new Error('ECONNREFUSED');
    await r.discovery.poll();
    await settle();
    expect(r.roster.current().size).toBe(3);
    expect(r.discovery.candidateCount()).toBe(3);
  });

  it('a market that resolves is left; one the selection stops wanting leaves with the selection’s reason', async () => {
    const a = market('a', T0 + 2 * HOUR);
    const b = market('b', T0 + 2 * HOUR);
    let wanted = new Set(['a', 'b']);
    const r = rig([a, b], ({ candidates }) => ({
      selected: candidates.filter((c) => wanted.has(c.market.slug)).map((c) => c.market),
      skipped: new Map(candidates.filter((c) => !wanted.has(c.market.slug)).map((c) => [c.market.slug, 'fair 0.99 above maxFair 0.97'])),
    }));
    r.discovery.resolved('a');
    r.clock.advance(250);
    await settle();
    expect(r.steps).toEqual(['drain a', 'unregister a']);
    wanted = new Set();
    await r.discovery.evaluate();
    await settle();
    expect(r.steps.slice(2)).toEqual(['drain b', 'unregister b']);
    expect(r.discovery.skippedReasons().get('b')).toBe('fair 0.99 above maxFair 0.97');
  });

  it('a join whose adoption fails is rolled back, and joined at a later evaluation', async () => {
    const r = rig([]);
    r.failAdopt.add('x');
    r.listing = [market('x', T0 + 2 * HOUR)];
    await r.discovery.poll();
    await settle();
    expect(r.steps).toEqual(['register x', 'adopt x', 'drain x', 'unregister x']);
    expect(r.roster.current().size).toBe(0);
    r.failAdopt.clear();
    await r.discovery.evaluate();
    await settle();
    expect(r.steps.slice(4)).toEqual(['register x', 'adopt x']);
    expect([...r.roster.current()]).toEqual(['x']);
  });

  it('markets change side by side: a slow adoption in one market does not hold back another; one market’s changes keep their order', async () => {
    const steps: string[] = [];
    let releaseA = (): void => undefined;
    const roster = new MarketRoster(
      {
        register: (m) => void steps.push(`register ${m.slug}`),
        adopt: (m) => {
          steps.push(`adopt ${m.slug}`);
          return m.slug === 'a' ? new Promise((resolve) => (releaseA = () => resolve({ adopted: 0, canceled: 0, ok: true }))) : Promise.resolve({ adopted: 0, canceled: 0, ok: true });
        },
        drain: (slug) => {
          steps.push(`drain ${slug}`);
          return Promise.resolve({ clean: true });
        },
        unregister: (slug) => void steps.push(`unregister ${slug}`),
      },
      log,
    );
    const first = roster.apply({ join: [market('a', T0 + HOUR)], leave: [] });
    const leaveA = roster.apply({ join: [], leave: [{ slug: 'a', reason: 'test' }] });
    await roster.apply({ join: [market('b', T0 + HOUR)], leave: [] });
    expect(steps).toEqual(['register a', 'adopt a', 'register b', 'adopt b']);
    releaseA();
    await first;
    await leaveA;
    expect(steps.slice(4)).toEqual(['drain a', 'unregister a']);
    expect([...roster.current()]).toEqual(['b']);
  });

  it('nothing is joined or polled after stop', async () => {
    const r = rig([]);
    r.discovery.start();
    await r.discovery.stop();
    await r.roster.stop();
    r.listing = [market('late', T0 + 2 * HOUR)];
    r.clock.advance(10 * 60_000);
    await r.discovery.poll();
    await settle();
    expect(r.steps).toEqual([]);
    expect(r.clock.pending()).toBe(0);
  });
});

describe('24 virtual hours of hourly ladders', () => {
  it('joins each hour’s ladder and leaves the last; the joined set, the candidates and the metric series stay bounded', async () => {
    const { Registry } = await import('prom-client');
    const { createMetrics } = await import('../../../src/metrics/index.js');
    const registry = new Registry();
    const metrics = createMetrics({ registry, collectDefault: false });
    const clock = new ManualClock(Date.parse('2026-11-26T00:00:30.000Z'));
    const ladder = (hourEndMs: number): Market[] => [1, 2, 3].map((k) => market(`btc-${hourEndMs}-${k}`, hourEndMs));
    let listing = ladder(Date.parse('2026-11-26T01:00:00.000Z'));
    const joinedPerHour: number[] = [];
    const roster = new MarketRoster(
      {
        register: (m) => {
          metrics.bookUpdated(m.slug);
          metrics.openOrders(m.slug, 2);
          metrics.fill(m.slug, 'BUY', 'YES', 5_000_000, 2_500_000);
          metrics.modelFair(m.slug, 0.5, 0.01);
        },
        adopt: () => Promise.resolve({ adopted: 0, canceled: 0, ok: true }),
        drain: () => Promise.resolve({ clean: true }),
        unregister: (slug) => metrics.forgetMarket(slug),
      },
      log,
    );
    const discovery = new MarketDiscovery(
      {
        scheduler: clock,
        log,
        listActive: () => Promise.resolve(listing),
        details: (slug) => Promise.reject(new Error(slug)),
        select: ({ candidates }) => ({ selected: candidates.map((c) => c.market), skipped: new Map() }),
        fairOf: () => 0.5,
        leaveAtMs: (m) => (m.expirationMs === null ? null : m.expirationMs - STOP_MS),
        roster,
        pollIntervalMs: 60_000,
        evaluateIntervalMs: 5_000,
      },
      [],
    );
    discovery.start();
    const seriesAt: number[] = [];
    for (let hour = 1; hour <= 24; hour += 1) {
      // The venue lists the next hour's ladder on the hour.
      const hourStart = Date.parse('2026-11-26T00:00:00.000Z') + (hour - 1) * HOUR;
      listing = ladder(hourStart + HOUR);
      for (let minute = 0; minute < 60; minute += 1) {
        clock.advance(60_000);
        await settle();
        if (minute === 30) {
          joinedPerHour.push(roster.current().size);
          seriesAt.push((await registry.metrics()).split('\n').filter((line) => line.includes('market="')).length);
        }
      }
    }
    await discovery.stop();
    // Every hour has its own ladder joined at its end, never more than two ladders at once.
    expect(Math.max(...joinedPerHour)).toBeLessThanOrEqual(6);
    expect(joinedPerHour.at(-1)).toBe(3);
    expect(discovery.candidateCount()).toBeLessThanOrEqual(6);
    // Series of hour 24 no more than of hour 2: the left markets' series are gone.
    expect(seriesAt[23]).toBeLessThanOrEqual(seriesAt[1] ?? 0);
    expect(seriesAt[23]).toBeGreaterThan(0);
  });
});

describe('listing entries without their details', () => {
  it('reads a selected entry’s details once; one that is not tradable then is judged as it is, not read again', async () => {
    const reads: string[] = [];
    const clock = new ManualClock(T0);
    const bare = (slug: string): Market => market(slug, T0 + 2 * HOUR, { venue: null, tokens: null });
    const roster = new MarketRoster({ register: () => undefined, adopt: () => Promise.resolve({ adopted: 0, canceled: 0, ok: true }), drain: () => Promise.resolve({ clean: true }), unregister: () => undefined }, log);
    const discovery = new MarketDiscovery(
      {
        scheduler: clock,
        log,
        listActive: () => Promise.resolve([bare('amm-like'), bare('clob')]),
        details: (slug) => {
          reads.push(slug);
          return Promise.resolve(slug === 'clob' ? market(slug, T0 + 2 * HOUR) : bare(slug));
        },
        select: ({ candidates }) => ({
          selected: candidates.filter((c) => c.detailsPending || (c.market.venue !== null && c.market.tokens !== null)).map((c) => c.market),
          skipped: new Map(),
        }),
        fairOf: () => null,
        leaveAtMs: () => null,
        roster,
        pollIntervalMs: 60_000,
        evaluateIntervalMs: 5_000,
      },
      [],
    );
    await discovery.poll();
    await settle();
    for (let i = 0; i < 5; i += 1) await discovery.evaluate();
    await settle();
    expect(reads.sort()).toEqual(['amm-like', 'clob']);
    expect([...roster.current()]).toEqual(['clob']);
  });
});

import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activeMarkets, marketInfoOf, MarketSelectionError, NAMED_FROM_LISTING_AT, resolveMarkets, selectWithDetails, withDetails } from '../../../src/markets/venue-markets.js';
import { everyMarketConfig } from '../../../src/config/markets-schema.js';
import type { MarketSelector, MarketsConfig } from '../../../src/config/types.js';
import { ExchangeApi } from '../../../src/exchange/api.js';
import { HttpTransport } from '../../../src/exchange/http.js';
import { RequestLimiter } from '../../../src/exchange/limiter.js';
import { cryptoWorldOptions } from '../../../src/sim/engine/index.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { activeMarketRecordings } from '../../contract/samples.js';
import { fakeTime } from '../../support/fake-time.js';
import { startRecordingServer, type RecordedRequest, type RecordingServer, type Reply } from '../../support/recording-server.js';
import { CAPTURED_AT_MS, rules as rulesOnly } from '../../support/selection-fixtures.js';

const VENUE = '0xa4409D988CA2218d956BeEFD3874100F444f0DC3';
const log = pino({ level: 'silent' });

interface Spec {
  readonly venue?: boolean;
  readonly resolved?: boolean;
  readonly expired?: boolean;
  readonly rewardable?: boolean;
  /** Daily reward in USDC. */
  readonly dailyReward?: number;
}

let nextId = 1;
function wireMarket(slug: string, spec: Spec = {}): Record<string, unknown> {
  nextId += 1;
  return {
    id: nextId,
    slug,
    title: `Market ${slug}`,
    tokens: { yes: String(1000 + nextId * 2), no: String(1001 + nextId * 2) },
    ...(spec.venue === false ? {} : { venue: { exchange: VENUE, adapter: VENUE } }),
    expired: spec.expired ?? false,
    winningOutcomeIndex: spec.resolved ? 0 : null,
    isRewardable: spec.rewardable ?? true,
    settings: { minSize: '10', maxSpread: 0.03, dailyReward: String(spec.dailyReward ?? 10), c: '3' },
  };
}

/** A venue: details by slug, and the active listing (entries are markets or groups `{slug, markets}`). */
class Venue {
  readonly details = new Map<string, Record<string, unknown>>();
  listing: Record<string, unknown>[] = [];
  /** The venue's own page-size cap (not published). */
  maxPageSize = 100;

  add(slug: string, spec: Spec = {}, listed: Spec = spec): void {
    this.details.set(slug, wireMarket(slug, spec));
    this.listing.push(wireMarket(slug, listed));
  }

  addGroup(group: string, members: readonly (readonly [string, Spec])[]): void {
    const markets = members.map(([slug, spec]) => {
      const wire = wireMarket(slug, spec);
      this.details.set(slug, wire);
      return wire;
    });
    this.listing.push({ slug: group, markets });
  }

  answer(request: RecordedRequest): Reply {
    if (request.pathname === '/markets/active') {
      const page = Number(request.query.get('page') ?? '1');
      const limit = Math.min(Number(request.query.get('limit') ?? '25'), this.maxPageSize);
      return { status: 200, body: { data: this.listing.slice((page - 1) * limit, page * limit), totalMarketsCount: this.listing.length } };
    }
    const slug = decodeURIComponent(request.pathname.replace(/^\/markets\//, ''));
    const market = this.details.get(slug);
    return market ? { status: 200, body: market } : { status: 404, body: { message: 'Market not found', error: 'Not Found', statusCode: 404 } };
  }
}

let server: RecordingServer;
let venue: Venue;

beforeEach(async () => {
  venue = new Venue();
  server = await startRecordingServer((request) => venue.answer(request));
});
afterEach(async () => {
  await server.close();
});

function api(baseUrl = server.url): ExchangeApi {
  const time = fakeTime();
  return new ExchangeApi({
    transport: new HttpTransport({
      baseUrl,
      limiter: new RequestLimiter({ minTimeMs: 0 }, { now: time.now, setTimer: time.setTimer }),
      now: time.now,
      sleep: time.sleep,
      retry: { maxServerErrorRetries: 0 },
    }),
  });
}

function config(overrides: Partial<MarketsConfig> = {}): MarketsConfig {
  return { ...everyMarketConfig(1), select: null, ...overrides };
}

/** "The N best by daily reward, rewardable or not", no other rule (the simulator's default), with `overrides`. */
function selector(overrides: Partial<MarketSelector> = {}): MarketSelector {
  const base = everyMarketConfig(2).select;
  if (base === null) throw new Error('everyMarketConfig has a selector');
  return { ...base, ...overrides };
}

/** The clock of the tests on a recording venue (its markets have no expiry). */
const AT = { nowMs: Date.parse('2026-01-01T00:00:00Z') };

async function slugs(markets: Promise<readonly { readonly slug: string }[]>): Promise<string[]> {
  return (await markets).map((m) => m.slug);
}

async function selectionError(promise: Promise<unknown>): Promise<MarketSelectionError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MarketSelectionError) return error;
    throw error;
  }
  throw new Error('expected a MarketSelectionError');
}

function paths(): string[] {
  return server.requests.map((r) => r.pathname);
}

describe('resolveMarkets: explicit slugs', () => {
  it('returns the named markets with their details, without reading the listing', async () => {
    venue.add('btc-100k');
    venue.add('eth-5k');
    expect(await slugs(resolveMarkets(api(), config({ slugs: ['btc-100k', 'eth-5k'] }), log, AT))).toEqual(['btc-100k', 'eth-5k']);
    expect(paths()).toEqual(['/markets/btc-100k', '/markets/eth-5k']);
  });

  it(`from ${NAMED_FROM_LISTING_AT} named slugs on: read from the active listing (one read per page), the rest one by one`, async () => {
    const named = Array.from({ length: 30 }, (_, i) => `m-${i}`);
    for (const slug of named) venue.add(slug);
    venue.add('ended', { resolved: true }, {});
    venue.listing = venue.listing.filter((m) => m['slug'] !== 'ended' && m['slug'] !== 'm-29');
    const chosen = await slugs(resolveMarkets(api(), config({ slugs: [...named, 'ended'] }), log, AT));
    expect(chosen).toEqual(named);
    // 29 of 30 listed over two pages of 25; a third page brings nothing new; m-29 and the ended market by their details.
    expect(paths()).toEqual(['/markets/active', '/markets/active', '/markets/active', '/markets/m-29', '/markets/ended']);
  });

  it('a listing entry without its venue is completed from its details', async () => {
    const named = Array.from({ length: NAMED_FROM_LISTING_AT }, (_, i) => `m-${i}`);
    for (const slug of named) venue.add(slug, {}, slug === 'm-3' ? { venue: false } : {});
    expect(await slugs(resolveMarkets(api(), config({ slugs: named }), log, AT))).toEqual(named);
    expect(paths()).toEqual(['/markets/active', '/markets/m-3']);
  });

  it('a named market without a venue is an error naming it', async () => {
    venue.add('btc-100k');
    venue.add('dead-market', { venue: false });
    const error = await selectionError(resolveMarkets(api(), config({ slugs: ['btc-100k', 'dead-market'] }), log, AT));
    expect(error.slug).toBe('dead-market');
    expect(error.message).toContain('"dead-market"');
    expect(error.message).toContain('not tradable');
  });

  it.each([
    ['resolved', { resolved: true }],
    ['expired', { expired: true }],
  ])('a named market that is %s is skipped with a warning naming it (a restart after a resolution keeps quoting the rest)', async (what, spec: Spec) => {
    venue.add('btc-100k');
    venue.add('ended-market', spec);
    const lines: string[] = [];
    const recording = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    expect(await slugs(resolveMarkets(api(), config({ slugs: ['btc-100k', 'ended-market'] }), recording, AT))).toEqual(['btc-100k']);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ market: 'ended-market', [what]: true, msg: 'a market named in the config has ended: not quoted' });
  });

  it('a named market the venue does not know is an error naming it', async () => {
    const error = await selectionError(resolveMarkets(api(), config({ slugs: ['no-such-market'] }), log, AT));
    expect(error.slug).toBe('no-such-market');
    expect(error.message).toContain('not found');
  });

  it('an exclusion wins over an explicit slug', async () => {
    venue.add('btc-100k');
    venue.add('eth-5k');
    expect(await slugs(resolveMarkets(api(), config({ slugs: ['btc-100k', 'eth-5k'], exclude: ['eth-5k'] }), log, AT))).toEqual(['btc-100k']);
  });
});

describe('resolveMarkets: groups', () => {
  it('expands a group to its tradable submarkets, minus exclusions', async () => {
    venue.add('btc-100k');
    venue.addGroup('fed-rates', [
      ['fed-cut-25', {}],
      ['fed-cut-50', {}],
      ['fed-hold', { resolved: true }],
      ['fed-hike', {}],
    ]);
    const chosen = await slugs(resolveMarkets(api(), config({ groups: ['fed-rates'], exclude: ['fed-hike'] }), log, AT));
    expect(chosen).toEqual(['fed-cut-25', 'fed-cut-50']);
  });

  it('a group that is not active is an error naming it', async () => {
    venue.add('btc-100k');
    const error = await selectionError(resolveMarkets(api(), config({ groups: ['no-group'] }), log, AT));
    expect(error.slug).toBe('no-group');
  });
});

describe('resolveMarkets: selector', () => {
  beforeEach(() => {
    venue.add('small', { dailyReward: 5 });
    venue.add('big', { dailyReward: 50 });
    venue.add('bigger', { dailyReward: 80, rewardable: false });
    venue.add('mid-b', { dailyReward: 20 });
    venue.add('mid-a', { dailyReward: 20 });
    venue.add('huge-resolved', { dailyReward: 500, resolved: true });
    venue.add('huge-expired', { dailyReward: 400, expired: true });
  });

  it('takes the top N tradable markets by daily reward (ties by slug)', async () => {
    expect(await slugs(resolveMarkets(api(), config({ select: selector({ top: 3 }) }), log, AT))).toEqual(['bigger', 'big', 'mid-a']);
  });

  it('rewardableOnly and minDailyReward filter before ranking', async () => {
    const select = selector({ top: 5, rewardableOnly: true, minDailyRewardRaw: 20_000_000 });
    expect(await slugs(resolveMarkets(api(), config({ select }), log, AT))).toEqual(['big', 'mid-a', 'mid-b']);
  });

  it('excluded and explicitly named markets do not take a selector place', async () => {
    const chosen = await slugs(resolveMarkets(api(), config({ slugs: ['small'], select: selector({ top: 2 }), exclude: ['bigger'] }), log, AT));
    expect(chosen).toEqual(['small', 'big', 'mid-a']);
  });
});

describe('resolveMarkets: the listing', () => {
  it('nothing configured → every active tradable market', async () => {
    venue.add('a');
    venue.add('b', { resolved: true });
    venue.add('c', { expired: true });
    venue.addGroup('g', [
      ['g-1', {}],
      ['g-2', {}],
    ]);
    venue.add('d');
    expect(await slugs(resolveMarkets(api(), config(), log, AT))).toEqual(['a', 'g-1', 'g-2', 'd']);
  });

  it('judges a listing entry without a venue on its details (GET /markets/{slug})', async () => {
    venue.add('listed-bare', { dailyReward: 90 }, { dailyReward: 90, venue: false });
    venue.add('really-bare', { dailyReward: 80, venue: false }, { dailyReward: 80, venue: false });
    venue.add('full', { dailyReward: 10 });
    expect(await slugs(resolveMarkets(api(), config({ select: selector({ top: 2 }) }), log, AT))).toEqual(['listed-bare', 'full']);
    expect(paths().filter((p) => p !== '/markets/active')).toEqual(['/markets/listed-bare', '/markets/really-bare']);
    expect(await slugs(resolveMarkets(api(), config(), log, AT))).toEqual(['listed-bare', 'full']);
  });

  it('reads every page, even when the venue caps the page size below what was asked', async () => {
    venue.maxPageSize = 25;
    for (let i = 0; i < 60; i += 1) venue.add(`m-${String(i).padStart(2, '0')}`);
    const chosen = await resolveMarkets(api(), config(), log, AT);
    expect(chosen).toHaveLength(60);
    expect(server.requests.map((r) => r.query.get('page'))).toEqual(['1', '2', '3', '4']);
  });

  it('stops on a venue that ignores the page number', async () => {
    venue.add('a');
    server.setHandler((request) => {
      if (request.pathname !== '/markets/active') return venue.answer(request);
      return { status: 200, body: { data: venue.listing } };
    });
    expect(await slugs(resolveMarkets(api(), config(), log, AT))).toEqual(['a']);
    expect(server.requests).toHaveLength(2);
  });
});

describe('rules on the recorded live listing (12 items, 7 without their venue contract)', () => {
  /** The recorded items as the listing, and as their details with the venue and tokens a listing entry may lack. */
  function recordedVenue(): void {
    for (const { body } of activeMarketRecordings()) {
      const item = body as Record<string, unknown>;
      venue.listing.push(item);
      venue.details.set(String(item['slug']), { ...item, venue: { exchange: VENUE, adapter: null }, tokens: { yes: `${String(item['id'])}1`, no: `${String(item['id'])}2` } });
    }
  }
  const HOURLY_BTC_ETH = rulesOnly({ max: 12, tickers: ['BTC', 'ETH'], cadences: ['hourly'], joinBeforeSettlementMs: 3_000_000 });

  it('every BTC and ETH hourly market that settles within 50 min; details read only for the selected entries that lack them', async () => {
    recordedVenue();
    const chosen = await resolveMarkets(api(), HOURLY_BTC_ETH, log, { nowMs: CAPTURED_AT_MS });
    // Ranked by daily reward (BTC 1000, ETH none), then (fair values unknown, one settlement time) by slug.
    const titles = chosen.map((m) => m.title.replace(/^[^$]*/, ''));
    expect(titles).toEqual(['$BTC above $86885.46 on Dec 17, 01:00 UTC?', '$BTC above $87850.54 on Dec 17, 01:00 UTC?', '$BTC above $88640.73 on Dec 17, 01:00 UTC?', '$ETH above $2961.91 on Dec 17, 01:00 UTC?']);
    expect(chosen.every((m) => m.venue !== null && m.tokens !== null)).toBe(true);
    expect(paths().filter((p) => p !== '/markets/active')).toEqual([`/markets/${chosen[3]!.slug}`]);
  });

  it('at 01:00 the hourly markets have settled: nothing is selected, and a named one is skipped with a warning', async () => {
    recordedVenue();
    const settled = Date.parse('2025-12-17T01:00:00Z');
    expect(await resolveMarkets(api(), HOURLY_BTC_ETH, log, { nowMs: settled })).toEqual([]);
    const lines: string[] = [];
    const recording = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const named = activeMarketRecordings().map((r) => String((r.body as Record<string, unknown>)['slug']))[0]!;
    expect(await resolveMarkets(api(), { ...HOURLY_BTC_ETH, slugs: [named] }, recording, { nowMs: settled })).toEqual([]);
    expect(JSON.parse(lines[0]!)).toMatchObject({ market: named, reason: 'not tradable: past its settlement at 2025-12-17T01:00:00.000Z' });
  });
});

describe('selectWithDetails', () => {
  it('a selected entry the venue no longer knows (404 on its details) is skipped with that reason; the next one takes its place', async () => {
    venue.add('vanishing', { dailyReward: 90 }, { dailyReward: 90, venue: false });
    venue.details.delete('vanishing');
    venue.add('second', { dailyReward: 50 });
    venue.add('third', { dailyReward: 10 });
    const listing = await activeMarkets(api());
    const result = await selectWithDetails(api(), { rules: config({ select: selector({ top: 2 }) }), candidates: listing.map((market) => ({ market, fair: null })), nowMs: AT.nowMs, current: new Set() });
    expect(result.selected.map((m) => m.slug)).toEqual(['second', 'third']);
    expect(result.skipped.get('vanishing')).toBe('not found on the venue (404) when its details were read');
    expect(await withDetails(api(), listing[1]!)).toBe(listing[1]);
  });
});

describe('resolveMarkets against the simulator', () => {
  let sim: RunningSimulator | null = null;
  afterEach(async () => {
    await sim?.close();
    sim = null;
  });

  it('selects every active market of the simulator, groups flattened, all tradable', async () => {
    sim = await startSimulator({ rateLimit: false, seed: 7 });
    const expected = sim.engine
      .markets()
      .filter((m) => !m.expired && m.winningOutcomeIndex === null)
      .map((m) => m.slug)
      .sort();
    const chosen = await resolveMarkets(api(sim.baseUrl), config(), log, { nowMs: sim.clock.now() });
    expect(chosen.map((m) => m.slug).sort()).toEqual(expected);
    expect(chosen.every((m) => m.venue !== null && m.tokens !== null)).toBe(true);
    const top = await resolveMarkets(api(sim.baseUrl), config({ select: selector({ top: 2 }) }), log, { nowMs: sim.clock.now() });
    expect(top).toHaveLength(2);
  });

  it('marketInfoOf: the strategy view of a venue market, reward settings in exact units, the given band', async () => {
    sim = await startSimulator({ rateLimit: false, seed: 7 });
    const engineMarket = sim.engine.markets().find((m) => m.groupSlug === undefined && m.tradable)!;
    const market = await api(sim.baseUrl).getMarket(engineMarket.slug);
    const info = marketInfoOf(market, { minTicks: 30, maxTicks: 970 });
    expect(info).toMatchObject({
      slug: engineMarket.slug,
      tokens: { yes: engineMarket.yesTokenId, no: engineMarket.noTokenId },
      rewardable: market.isRewardable,
      expiresAtMs: market.expirationMs,
      band: { minTicks: 30, maxTicks: 970 },
    });
    for (const figure of [info.minSizeRaw, info.maxSpreadTicks, info.dailyRewardRaw]) expect(Number.isSafeInteger(figure)).toBe(true);
    // The generic world states no rebate rate: absent, so the accrual's fallback applies (not a made-up 0).
    expect(info.rebateRate).toBeUndefined();
  });

  it('marketInfoOf: the maker rebate rate the venue states (settings.rebateRate) reaches the strategy view', async () => {
    sim = await startSimulator({ rateLimit: false, seed: 7, world: cryptoWorldOptions({ tickers: ['BTC'], cadences: ['daily'], strikesPerExpiry: 1 }) });
    const engineMarket = sim.engine.markets().find((m) => m.tradable)!;
    const info = marketInfoOf(await api(sim.baseUrl).getMarket(engineMarket.slug), { minTicks: 1, maxTicks: 999 });
    expect(info.rebateRate).toBe(0.2);
  });
});

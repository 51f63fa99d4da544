/**
 * Tick-to-trade benchmark: from an `orderbookUpdate` frame arriving at the socket handler (the decoded object
 * socket.io-client hands to `onAny`) to the signed placement handed to the network, through the real code:
 *
 *   parse     src/exchange/socket-wire.ts `frameParsers().parse` (what MarketFeed.handleFrame runs)
 *   book      src/book BookStore.handleFeedBook via its FeedPort listener (apply + NO view + change coalescing)
 *   hop       the coalescer's setImmediate to the change listener (a burst of frames yields one requote)
 *   strategy  src/strategy/runner.ts StrategyRunner: mid history, view, `fixed-spread` (strategies/) quote, validation
 *   risk      src/risk/gate.ts gateIntents (funding + risk limits)
 *   reconcile src/orders/reconcile.ts diff against the open orders, clientOrderId, VenueAdapter mapping
 *   signing   src/exchange/signer.ts buildOrder (validation, amounts, salt) + EIP-712 digest + secp256k1 signature
 *   request   api.placeOrder → HttpTransport → RequestLimiter (idle) → body JSON + HMAC headers (auth.ts) → sender
 *
 * The sender is a capturing fetch (nothing leaves the process): the clock stops when it is called, i.e. at the
 * point the HTTP sender would write the request with its body and HMAC headers built. The limiter has the venue's
 * configuration (2 in flight, 300 ms) on a clock that advances 1 s between frames, so it is idle for every frame
 * and its real scheduling path runs. Every frame moves the book; the bot holds no orders, so every frame's plan
 * places (the first placement is the one timed; the executor sends placements one by one). A sample of the
 * captured requests is checked afterwards: HMAC valid, EIP-712 signature recovers to the wallet.
 *
 * The book store runs on the production systemScheduler (its zero-delay immediates are ref'd: an unref'd one
 * waited for the next unrelated I/O event, 1.8–8 s per frame with nothing else pending; found by this bench).
 *
 * Not included: socket.io's own decoding of the websocket message, the executor's per-market p-queue hop, and
 * the kernel. Prints one table (p50 / p99 / max µs and each stage's share of the mean), plus the CPU time the
 * process used per frame (process.cpuUsage): on a machine shared with other work, wall-clock p99 is mostly time
 * spent waiting for a core, and the CPU figure shows what the code itself costs.
 *
 * Run: npx tsx bench/tick-to-trade.ts   (BENCH_T2T_FRAMES, default 10000; BENCH_T2T_SIGNING=worker signs in the
 * worker thread as the live bot does, default main; exports `run()` for bench/all.ts)
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { recoverTypedDataAddress, type Address, type Hex } from 'viem';
import { ExchangeApi } from '../src/exchange/api.js';
import { authHeaderNames, computeSignature, signingMessage, type ApiCredentials } from '../src/exchange/auth.js';
import { ORDER_TYPES, orderDomain, ZERO_ADDRESS } from '../src/exchange/eip712.js';
import { HttpTransport } from '../src/exchange/http.js';
import { RequestLimiter } from '../src/exchange/limiter.js';
import { OrderSigner, type SignedOrder, type SigningMarket, type UnsignedOrder, type OrderRequest } from '../src/exchange/signer.js';
import { frameParsers } from '../src/exchange/socket-wire.js';
import { mulberry32 } from '../src/core/random.js';
import { BookStore } from '../src/book/book-store.js';
import type { FeedConnectionState, FeedPort } from '../src/book/feed-port.js';
import { systemScheduler } from '../src/core/clock.js';
import type { BookSnapshot } from '../src/book/snapshot.js';
import { VenueAdapter } from '../src/venue/venue-adapter.js';
import { ClientOrderIdFactory } from '../src/orders/client-order-id.js';
import { reconcile } from '../src/orders/reconcile.js';
import { gateIntents } from '../src/risk/gate.js';
import type { MarketInfo, PositionView, QuoteIntent } from '../src/strategy/contract.js';
import { StrategyRunner, type GateResult } from '../src/strategy/runner.js';
import fixedSpread from '../strategies/fixed-spread.js';

const KEY = `0x${'11'.repeat(32)}` as const;
const CREDENTIALS: ApiCredentials = { tokenId: 'bench-token', secret: Buffer.from('bench-secret-for-hmac-0123456789').toString('base64') };
const MARKET_COUNT = 8;
const LEVELS = 15;
const FRAMES = Math.max(1000, Number(process.env['BENCH_T2T_FRAMES'] ?? 10_000));
const SIGNING_THREAD = process.env['BENCH_T2T_SIGNING'] === 'worker' ? 'worker' : 'main';
const WARMUP_FRAMES = 400;
const VENUES: readonly Address[] = ['0xa4409D988CA2218d956BeEFD3874100F444f0DC3', '0x5a38afc17F7E97ad8d6C547ddb837E40B4aEDfC6'];
const ORDER_ID = '3f1c2a9e-8b7d-4c6e-9a5f-1d2e3f4a5b6c';

const STAGES = ['parse', 'book', 'hop', 'strategy', 'risk', 'reconcile', 'signing', 'request'] as const;
type Stage = (typeof STAGES)[number];
const STAGE_TEXT: Readonly<Record<Stage, string>> = {
  parse: 'parse (socket-wire zod + levels → ticks/raw)',
  book: 'book (BookStore apply, NO view, mark change)',
  hop: 'coalescing hop (setImmediate → change listener)',
  strategy: 'strategy (runner: view, fixed-spread quote, validate)',
  risk: 'risk gate (funding + limits)',
  reconcile: 'reconcile + clientOrderId + venue adapter',
  signing: 'signing (build, EIP-712 digest, secp256k1)',
  request: 'request (limiter, body JSON, HMAC headers)',
};

/** Per-frame timestamps (performance.now ms): t[0] frame in … t[8] on the wire. */
interface FrameTimes {
  t: Float64Array;
  placed: boolean;
  /** CPU time the process used from the frame's arrival to the wire (µs, process.cpuUsage: user + system). */
  cpuUs: number;
}

class ManualFeed implements FeedPort {
  private readonly bookListeners = new Set<(slug: string, snapshot: BookSnapshot) => void>();
  private readonly state: FeedConnectionState = { status: 'connected', sinceMs: Date.now(), downSinceMs: null, lastConnectedAtMs: Date.now(), connects: 1, closed: false };
  setMarkets(): void {}
  reconnect(): void {}
  connectionState(): FeedConnectionState {
    return this.state;
  }
  onBook(listener: (slug: string, snapshot: BookSnapshot) => void): () => void {
    this.bookListeners.add(listener);
    return () => this.bookListeners.delete(listener);
  }
  onStateChange(): () => void {
    return () => undefined;
  }
  emitBook(slug: string, snapshot: BookSnapshot): void {
    for (const listener of this.bookListeners) listener(slug, snapshot);
  }
}

/** A seeded random walk of one market's YES book, rendered as the venue's wire frame. */
class BookWalk {
  private midTicks: number;
  private step = 0;
  constructor(
    readonly slug: string,
    private readonly tokenId: string,
    private readonly random: () => number,
  ) {
    this.midTicks = 350 + Math.floor(random() * 300);
  }

  next(): unknown {
    this.step++;
    this.midTicks = Math.min(800, Math.max(200, this.midTicks + Math.floor(this.random() * 5) - 2));
    const strings = this.step % 3 === 0;
    const level = (ticks: number, j: number): { price: number | string; size: number | string } => {
      // Sizes in shares with up to 3 decimals; the first level changes every frame so every frame is a change.
      const shares = (50 + ((j * 37 + this.step * (j === 0 ? 13 : 1)) % 400) + (j === 0 ? (this.step % 997) / 1000 : 0)).toFixed(3);
      return strings ? { price: (ticks / 1000).toFixed(3), size: shares } : { price: ticks / 1000, size: Number(shares) };
    };
    const bids = Array.from({ length: LEVELS }, (_, j) => level(this.midTicks - 3 - j * 2, j));
    const asks = Array.from({ length: LEVELS }, (_, j) => level(this.midTicks + 3 + j * 2, j));
    return {
      marketSlug: this.slug,
      orderbook: { bids, asks, tokenId: this.tokenId, adjustedMidpoint: this.midTicks / 1000, maxSpread: 0.03, minSize: 50 },
      timestamp: Date.now(),
    };
  }

  restSnapshot(): BookSnapshot {
    return {
      bids: Array.from({ length: LEVELS }, (_, j) => ({ priceTicks: this.midTicks - 3 - j * 2, sizeRaw: 100_000_000 })),
      asks: Array.from({ length: LEVELS }, (_, j) => ({ priceTicks: this.midTicks + 3 + j * 2, sizeRaw: 100_000_000 })),
      adjustedMidpoint: this.midTicks / 1000,
    };
  }
}


function quantile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

interface Captured {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly path: string;
}

export async function run(): Promise<Record<string, number | string>> {
  const random = mulberry32(15);
  const markets: SigningMarket[] = Array.from({ length: MARKET_COUNT }, (_, i) => ({
    slug: `bench-market-${i}`,
    venueExchange: VENUES[i % VENUES.length] ?? ZERO_ADDRESS,
    tokens: { yes: `${7_000_000 + 2 * i}${'1234567890'.repeat(6)}`, no: `${7_000_000 + 2 * i + 1}${'1234567890'.repeat(6)}` },
  }));
  const infos: MarketInfo[] = markets.map((m) => ({
    slug: m.slug,
    tokens: m.tokens,
    minSizeRaw: 1_000_000,
    maxSpreadTicks: 30,
    rewardC: 3,
    dailyRewardRaw: 0,
    rewardable: false,
    expiresAtMs: null,
    band: { minTicks: 10, maxTicks: 990 },
  }));
  const walks = new Map(markets.map((m) => [m.slug, new BookWalk(m.slug, m.tokens.yes, random)]));

  // Per-frame stamps, written by the instrumented seams below.
  let current: FrameTimes = { t: new Float64Array(9), placed: false, cpuUs: 0 };
  let cpuAtFrame = process.cpuUsage();
  let onWire: (() => void) | null = null;
  const captured: Captured[] = [];

  class TimedSigner extends OrderSigner {
    override buildOrder(request: OrderRequest): UnsignedOrder {
      current.t[6] = performance.now();
      return super.buildOrder(request);
    }
    override async signOrder(order: UnsignedOrder): Promise<SignedOrder> {
      const signed = await super.signOrder(order);
      current.t[7] = performance.now();
      return signed;
    }
  }
  // BENCH_T2T_SIGNING=worker: signatures in the worker thread, as the live bot makes them (src/exchange/worker-signer.ts).
  const signer = new TimedSigner({ privateKey: KEY, signingThread: SIGNING_THREAD });

  // The limiter's clock moves 1 s on every reading: its real scheduling code runs and never has to wait (idle).
  let limiterClockMs = 0;
  const answer = JSON.stringify({ order: { id: ORDER_ID }, makerMatches: [], execution: { matched: false, settlementStatus: 'UNMATCHED' } });
  const transport = new HttpTransport({
    baseUrl: 'https://venue.invalid',
    credentials: CREDENTIALS,
    limiter: new RequestLimiter({}, { now: () => (limiterClockMs += 1000) }),
    fetch: (url, init) => {
      current.t[8] = performance.now();
      const cpu = process.cpuUsage(cpuAtFrame);
      current.cpuUs = cpu.user + cpu.system;
      current.placed = true;
      const headers = init.headers as Record<string, string>;
      const body = typeof init.body === 'string' ? init.body : '';
      if (captured.length < 64 || captured.length % 500 === 0) captured.push({ headers, body, path: new URL(url).pathname });
      onWire?.();
      return Promise.resolve(new Response(answer, { status: 201, headers: { 'content-type': 'application/json' } }));
    },
  });
  const api = new ExchangeApi({ transport, profileId: 42 });
  const adapter = new VenueAdapter({ api, signer, markets: new Map(markets.map((m) => [m.slug, m])), recvWindowMs: null });
  const ids = new ClientOrderIdFactory('bench', () => Date.now());

  const feed = new ManualFeed();
  const bookProblems: string[] = [];
  const store = new BookStore({
    fetchSnapshot: (slug) => Promise.resolve(walks.get(slug)?.restSnapshot() ?? { bids: [], asks: [] }),
    feed,
    scheduler: systemScheduler,
    observer: {
      onSnapshotRejected: (slug, _source, error) => bookProblems.push(`${slug}: ${error.message}`),
      onFrameIgnored: (slug, reason) => bookProblems.push(`${slug}: frame ignored (${reason})`),
    },
    watchdog: { intervalMs: 3_600_000, quietAfterMs: 3_600_000, staleAfterMs: 7_200_000 },
  });
  store.setMarkets(markets.map((m) => m.slug));
  store.start();
  for (let i = 0; i < 1000 && markets.some((m) => store.books(m.slug) === null); i++) await new Promise((resolve) => setImmediate(resolve));
  if (markets.some((m) => store.books(m.slug) === null)) throw new Error('books did not load');

  // The stage seams: the change listener (registered before the runner's, so it runs first), the gate, the submit.
  store.onChange(() => {
    current.t[3] = performance.now();
  });
  const flat: PositionView = { yesRaw: 0, noRaw: 0, yesAvgCost: null, noAvgCost: null, freeCollateralRaw: 1_000_000_000_000 };
  const gate = (slug: string, intents: readonly QuoteIntent[]): GateResult => {
    current.t[4] = performance.now();
    const info = infos.find((m) => m.slug === slug);
    if (!info) return { intents: [], halt: 'unknown-market' };
    const outcome = gateIntents({
      market: info,
      resolved: false,
      intents,
      openOrders: [],
      holdings: new Map(infos.map((m) => [m.slug, { yesRaw: 0, noRaw: 0, costRaw: 0 }])),
      balances: { collateralRaw: 1_000_000_000_000, tokensRaw: new Map() },
      limits: { maxPositionPerTokenRaw: 1e12, maxNetPositionRaw: 1e12, maxOpenOrders: 100, stopBeforeExpiryMs: 0, maxNotionalRaw: 1e13 },
      nowMs: Date.now(),
      killSwitchTripped: false,
      stale: false,
    });
    current.t[5] = performance.now();
    return { intents: outcome.intents, halt: outcome.halt };
  };
  let skipped = 0;
  let submission: Promise<void> = Promise.resolve();
  const submit = (slug: string, intents: readonly QuoteIntent[]): Promise<void> => {
    submission = placeFirst(slug, intents);
    return submission;
  };
  const placeFirst = async (slug: string, intents: readonly QuoteIntent[]): Promise<void> => {
    const plan = reconcile(intents, [], { nowMs: Date.now(), intentsIssuedAtMs: Date.now() });
    const first = plan.places[0];
    const market = markets.find((m) => m.slug === slug);
    if (!first || !market) {
      skipped++;
      onWire?.();
      return;
    }
    const intent = first.intent;
    await adapter.placeOrder({
      marketSlug: slug,
      clientOrderId: ids.next(slug, first.slot),
      token: intent.token,
      tokenId: intent.token === 'YES' ? market.tokens.yes : market.tokens.no,
      side: intent.side,
      priceTicks: intent.priceTicks,
      sizeRaw: intent.sizeRaw,
      postOnly: intent.postOnly ?? true,
      orderType: 'GTC',
    });
  };
  const runnerErrors: unknown[] = [];
  const runner = new StrategyRunner({
    strategy: fixedSpread.create(fixedSpread.paramsSchema.parse({ levels: 3, orderSize: 20 })),
    markets: infos,
    books: { books: (slug) => (store.isStale(slug) ? null : store.books(slug)), onChange: (listener) => store.onChange(listener) },
    position: () => flat,
    ownOrders: () => [],
    recentFills: () => [],
    gate,
    submit,
    now: () => Date.now(),
    requoteIntervalMs: 3_600_000,
    setInterval: () => () => undefined,
    observer: { onCycleError: (_slug, error) => runnerErrors.push(error), onStrategyError: (_slug, error) => runnerErrors.push(error) },
  });

  const parsers = frameParsers();
  const order = markets.map((m) => m.slug);
  const oneFrame = async (i: number): Promise<FrameTimes> => {
    const slug = order[i % order.length] ?? '';
    const payload = walks.get(slug)?.next();
    current = { t: new Float64Array(9), placed: false, cpuUs: 0 };
    const frame = current;
    const done = new Promise<void>((resolve) => {
      onWire = resolve;
    });
    // ---- the frame arrives at the socket handler
    cpuAtFrame = process.cpuUsage();
    frame.t[0] = performance.now();
    const parsed = parsers.parse('orderbookUpdate', payload);
    frame.t[1] = performance.now();
    if (!parsed.ok || parsed.value.event !== 'orderbookUpdate') throw new Error(`frame ${i} did not parse: ${parsed.ok ? parsed.value.event : parsed.path}`);
    feed.emitBook(parsed.value.frame.slug, parsed.value.frame.snapshot);
    frame.t[2] = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`frame ${i} (${slug}) reached no placement within 10 s (t = ${frame.t.join(', ')})`)), 10_000);
    });
    await Promise.race([done, timeout]);
    clearTimeout(timer);
    // Let the placement finish (answer parsing etc.) before the next frame starts its clock.
    await submission;
    await new Promise((resolve) => setImmediate(resolve));
    return frame;
  };

  // The start-up cycle of every market.
  runner.start();
  let startTimer: NodeJS.Timeout | undefined;
  await Promise.race([
    runner.whenFirstCycleDone(),
    new Promise<never>((_, reject) => {
      startTimer = setTimeout(() => reject(new Error(`start-up quote cycle did not finish: ${runnerErrors.map(String).join('; ') || 'no error reported'}`)), 10_000);
    }),
  ]);
  clearTimeout(startTimer);
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (let i = 0; i < WARMUP_FRAMES; i++) await oneFrame(i);
  captured.length = 0;
  skipped = 0;

  const started = performance.now();
  const totals = new Float64Array(FRAMES);
  const cpus = new Float64Array(FRAMES);
  const stages = STAGES.map(() => new Float64Array(FRAMES));
  let placed = 0;
  for (let i = 0; i < FRAMES; i++) {
    const frame = await oneFrame(WARMUP_FRAMES + i);
    if (!frame.placed) continue;
    const t = frame.t;
    totals[placed] = (t[8]! - t[0]!) * 1000;
    cpus[placed] = frame.cpuUs;
    for (let s = 0; s < STAGES.length; s++) stages[s]![placed] = (t[s + 1]! - t[s]!) * 1000;
    placed++;
  }
  const wallSeconds = (performance.now() - started) / 1000;
  runner.stop();
  store.stop();
  transport.close();
  await signer.close();
  if (bookProblems.length > 0) throw new Error(`book store refused frames: ${bookProblems[0]}`);
  if (runnerErrors.length > 0) throw new Error(`runner errors: ${String(runnerErrors[0])}`);
  if (placed < FRAMES * 0.95) throw new Error(`only ${placed} of ${FRAMES} frames led to a placement (${skipped} skipped)`);

  // The captured requests are real: valid HMAC, and the EIP-712 signature recovers to the wallet.
  const names = authHeaderNames();
  for (const request of captured.slice(0, 24)) {
    const expected = computeSignature(CREDENTIALS.secret, signingMessage(request.headers[names.timestamp] ?? '', 'POST', request.path, request.body));
    if (request.headers[names.signature] !== expected) throw new Error('captured request has a bad HMAC signature');
    const body = JSON.parse(request.body) as { order: Record<string, unknown> & { signature: Hex; maker: Address; signer: Address }; marketSlug: string };
    const market = markets.find((m) => m.slug === body.marketSlug);
    if (!market) throw new Error('captured request for an unknown market');
    const o = body.order;
    const recovered = await recoverTypedDataAddress({
      domain: orderDomain(market.venueExchange),
      types: ORDER_TYPES,
      primaryType: 'Order',
      message: {
        salt: BigInt(String(o['salt'])), maker: o.maker, signer: o.signer, taker: ZERO_ADDRESS, tokenId: BigInt(String(o['tokenId'])),
        makerAmount: BigInt(String(o['makerAmount'])), takerAmount: BigInt(String(o['takerAmount'])), expiration: 0n, nonce: 0n,
        feeRateBps: BigInt(String(o['feeRateBps'])), side: Number(o['side']), signatureType: Number(o['signatureType']),
      },
      signature: o.signature,
    });
    if (recovered !== signer.signerAddress) throw new Error('captured order signature does not recover to the wallet');
  }

  const total = totals.slice(0, placed).sort();
  const meanTotal = totals.slice(0, placed).reduce((a, b) => a + b, 0) / placed;
  const rows: { stage: string; p50: string; p99: string; max: string; share: string }[] = [];
  const figures: Record<string, number | string> = {};
  STAGES.forEach((stage, s) => {
    const values = stages[s]!.slice(0, placed);
    const mean = values.reduce((a, b) => a + b, 0) / placed;
    values.sort();
    rows.push({ stage: STAGE_TEXT[stage], p50: quantile(values, 0.5).toFixed(1), p99: quantile(values, 0.99).toFixed(1), max: (values[values.length - 1] ?? 0).toFixed(0), share: `${((100 * mean) / meanTotal).toFixed(1)} %` });
    figures[`${stage}P50Us`] = Number(quantile(values, 0.5).toFixed(1));
    figures[`${stage}SharePct`] = Number(((100 * mean) / meanTotal).toFixed(1));
  });
  rows.push({ stage: 'TOTAL frame → signed request on the wire', p50: quantile(total, 0.5).toFixed(1), p99: quantile(total, 0.99).toFixed(1), max: (total[total.length - 1] ?? 0).toFixed(0), share: '100 %' });
  const cpu = cpus.slice(0, placed).sort();
  rows.push({ stage: 'CPU time used by the process meanwhile', p50: quantile(cpu, 0.5).toFixed(1), p99: quantile(cpu, 0.99).toFixed(1), max: (cpu[cpu.length - 1] ?? 0).toFixed(0), share: '' });
  const header = { stage: 'stage', p50: 'p50 µs', p99: 'p99 µs', max: 'max µs', share: 'share of mean' };
  const width = (k: keyof typeof header): number => Math.max(...[header, ...rows].map((r) => r[k].length));
  const line = (r: typeof header): string => `${r.stage.padEnd(width('stage'))}  ${r.p50.padStart(width('p50'))}  ${r.p99.padStart(width('p99'))}  ${r.max.padStart(width('max'))}  ${r.share.padStart(width('share'))}`;
  console.log(`tick-to-trade: ${placed} frames on ${MARKET_COUNT} markets (${LEVELS} levels a side), fixed-spread 3 levels, ${wallSeconds.toFixed(1)} s`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));

  return {
    frames: placed,
    markets: MARKET_COUNT,
    totalP50Us: Number(quantile(total, 0.5).toFixed(1)),
    totalP99Us: Number(quantile(total, 0.99).toFixed(1)),
    totalMaxUs: Number((total[total.length - 1] ?? 0).toFixed(0)),
    cpuP50Us: Number(quantile(cpu, 0.5).toFixed(1)),
    cpuP99Us: Number(quantile(cpu, 0.99).toFixed(1)),
    meetsTarget: quantile(total, 0.99) <= 2000 ? 'yes (p99 ≤ 2 ms)' : 'no (p99 > 2 ms)',
    ...figures,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}

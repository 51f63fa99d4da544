/**
 * Simulator engine benchmark: placement and cancel throughput (resting and crossing), and the CPU cost
 * of synthetic flow on 50 markets, as a share of one core at real time. Rates are per CPU-second of this
 * process (process.cpuUsage), so other load on the machine distorts them less than wall time would.
 * Run: npx tsx bench/sim-engine.ts
 */
import { pathToFileURL } from 'node:url';
import { createEngine, generateMarkets, ManualClock, type MarketSpec, type PlaceInput, type SimEngine } from '../src/sim/engine/index.js';
import { limitOrderAmounts } from '../src/core/venue-rules/index.js';

const T0 = Date.UTC(2026, 0, 1);
const SHARE = 1_000_000;

function order(m: MarketSpec, profileId: number, outcome: 'YES' | 'NO', side: 'BUY' | 'SELL', ticks: number, sizeRaw: number, type: 'GTC' | 'FAK' = 'GTC'): PlaceInput {
  const a = limitOrderAmounts(side, ticks, sizeRaw);
  return {
    profileId,
    marketSlug: m.slug,
    orderType: type,
    tokenId: outcome === 'YES' ? m.yesTokenId : m.noTokenId,
    side,
    makerAmount: a.makerAmount,
    takerAmount: a.takerAmount,
    priceTicks: ticks,
    feeRateBps: 300,
    salt: 1,
    postOnly: false,
    stpPolicy: 'cancel_maker',
    signature: '0x',
    signedOrderEcho: {},
  };
}

function engineWithAccounts(markets: MarketSpec[], accounts: number): SimEngine {
  return createEngine({
    seed: 1,
    clock: new ManualClock(T0),
    settlementDelayMs: 1000,
    markets,
    accounts: Array.from({ length: accounts }, (_, i) => ({
      profileId: i + 1,
      address: `0x${(i + 1).toString(16).padStart(40, '0')}`,
      usdcRaw: 1_000_000_000 * SHARE,
    })),
  });
}

function perSecond(count: number, ms: number): number {
  return Math.round((count / ms) * 1000);
}

/** CPU milliseconds of this process (user + system) since `start`: robust to other load on the machine. */
function cpuMs(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

export async function run(): Promise<Record<string, number | string>> {
  const markets = generateMarkets(1, 1, T0);
  const m = markets[0]!;

  // 1. resting placements into a deep book (10,000 orders over 400 levels), then cancels
  const restingEngine = engineWithAccounts(markets, 10);
  const restingCount = 20_000;
  const ids: string[] = [];
  let t = process.cpuUsage();
  for (let i = 0; i < restingCount; i += 1) {
    const bid = i % 2 === 0;
    const ticks = bid ? 100 + (i % 400) : 900 - (i % 400) + 1; // bids 100..499, NO bids as YES asks 501..900
    const r = restingEngine.place(order(m, (i % 10) + 1, bid ? 'YES' : 'NO', 'BUY', bid ? ticks : 1000 - ticks, SHARE));
    if (r.ok) ids.push(r.order.id);
  }
  const restingMs = cpuMs(t);
  t = process.cpuUsage();
  for (let i = 0; i < ids.length; i += 1) restingEngine.cancel((i % 10) + 1, ids[i]!);
  const cancelMs = cpuMs(t);

  // 2. crossing placements: each FAK taker sweeps two makers that are replenished
  const crossEngine = engineWithAccounts(markets, 4);
  const rounds = 10_000;
  t = process.cpuUsage();
  for (let i = 0; i < rounds; i += 1) {
    crossEngine.place(order(m, 1, 'NO', 'BUY', 450, SHARE)); // YES ask 0.55
    crossEngine.place(order(m, 2, 'NO', 'BUY', 449, SHARE)); // YES ask 0.551
    crossEngine.place(order(m, 3, 'YES', 'BUY', 560, 2 * SHARE, 'FAK'));
  }
  const crossMs = cpuMs(t);
  const crossOk = crossEngine.stats().tradesMatched === rounds;

  // 3. synthetic flow on 50 markets with default rates, 10 simulated minutes
  const clock = new ManualClock(T0);
  const synth = createEngine({ seed: 7, clock, settlementDelayMs: 2000, markets: generateMarkets(50, 3, T0), accounts: [], synthetic: { autoStep: false } });
  const simSeconds = 600;
  t = process.cpuUsage();
  for (let s = 0; s < simSeconds; s += 1) {
    clock.advance(1000);
    synth.syntheticStep();
  }
  const synthMs = cpuMs(t);
  const stats = synth.stats();
  const problems = synth.checkInvariants().length;

  return {
    restingPlacesPerSec: perSecond(restingCount, restingMs),
    cancelsPerSec: perSecond(ids.length, cancelMs),
    crossingRoundsPerSec: perSecond(rounds, crossMs),
    crossingOrdersPerSec: perSecond(rounds * 3, crossMs),
    crossingCheck: crossOk ? 'ok' : 'MISMATCH',
    synthetic50MarketsCorePct: Number(((synthMs / (simSeconds * 1000)) * 100).toFixed(2)),
    synthetic50MarketsCpuMsPerSimSec: Number((synthMs / simSeconds).toFixed(2)),
    syntheticOrdersPerSimSec: Number((stats.ordersPlaced / simSeconds).toFixed(1)),
    syntheticTradesPerSimSec: Number((stats.tradesMatched / simSeconds).toFixed(1)),
    syntheticInvariantViolations: problems,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await run();
  for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(36)} ${v}`);
}

import { pino, type Logger } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DryRunVenue } from '../../../src/venue/dry-run-venue.js';
import { createMetrics } from '../../../src/metrics/index.js';
import {
  VenueRequestError,
  type CancelResult,
  type MaintenanceStatus,
  type PlaceRequest,
  type PlaceResult,
  type StatusResult,
  type VenueOperation,
  type VenueOrderSnapshot,
  type VenuePort,
} from '../../../src/orders/venue-port.js';

const T0 = Date.parse('2026-03-23T12:00:00.000Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The real venue: records every call; anything but the maintenance status must never reach it. */
class RealVenue implements VenuePort {
  readonly calls: VenueOperation[] = [];
  status: MaintenanceStatus | Error = { mode: 'post_only', resumeAtMs: T0 + 60_000 };

  private refuse(operation: VenueOperation): Promise<never> {
    this.calls.push(operation);
    return Promise.reject(new Error(`${operation} reached the real venue`));
  }

  placeOrder(): Promise<PlaceResult> {
    return this.refuse('placeOrder');
  }
  cancelOrders(): Promise<CancelResult> {
    return this.refuse('cancelOrders');
  }
  cancelAll(): Promise<CancelResult> {
    return this.refuse('cancelAll');
  }
  statusBatch(): Promise<readonly StatusResult[]> {
    return this.refuse('statusBatch');
  }
  listLiveOrders(): Promise<readonly VenueOrderSnapshot[]> {
    return this.refuse('listLiveOrders');
  }
  maintenanceStatus(): Promise<MaintenanceStatus> {
    this.calls.push('maintenanceStatus');
    return this.status instanceof Error ? Promise.reject(this.status) : Promise.resolve(this.status);
  }
}

interface Harness {
  readonly dry: DryRunVenue;
  readonly real: RealVenue;
  readonly registry: Registry;
  readonly logs: Record<string, unknown>[];
  readonly clock: { now: number };
}

function harness(): Harness {
  const logs: Record<string, unknown>[] = [];
  const log: Logger = pino(
    { level: 'info' },
    {
      write: (line: string) => {
        const parsed: unknown = JSON.parse(line);
        if (typeof parsed === 'object' && parsed !== null) logs.push(Object.fromEntries(Object.entries(parsed)));
      },
    },
  );
  const registry = new Registry();
  const metrics = createMetrics({ registry, collectDefault: false });
  const real = new RealVenue();
  const clock = { now: T0 };
  return { dry: new DryRunVenue(real, log, metrics, () => clock.now), real, registry, logs, clock };
}

function request(overrides: Partial<PlaceRequest> = {}): PlaceRequest {
  return {
    marketSlug: 'btc',
    clientOrderId: 'om-1a2b3c4d-bid-0-k1',
    token: 'YES',
    tokenId: '101',
    side: 'BUY',
    priceTicks: 450,
    sizeRaw: 10_000_000,
    postOnly: true,
    orderType: 'GTC',
    ...overrides,
  };
}

async function counterValue(registry: Registry, name: string, labels: Readonly<Record<string, string>>): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const data = await metric.get();
  return data.values.find((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))?.value ?? 0;
}

describe('DryRunVenue', () => {
  it('a placement rests locally as LIVE under a synthetic id; nothing reaches the real venue', async () => {
    const h = harness();
    const placed = await h.dry.placeOrder(request());
    expect(placed.orderId).toMatch(UUID);
    expect(placed).toEqual({ orderId: placed.orderId, status: 'LIVE', remainingRaw: 10_000_000, fills: [], reason: null });
    expect(h.real.calls).toEqual([]);
    expect(await counterValue(h.registry, 'outcome_maker_risk_blocks_total', { market: 'btc', reason: 'dry-run-place' })).toBe(1);
    expect(h.logs.find((l) => l['msg'] === 'dry-run: would place')).toMatchObject({ dryRun: true, market: 'btc', clientOrderId: 'om-1a2b3c4d-bid-0-k1', side: 'BUY', price: 0.45, size: 10, postOnly: true });
  });

  it('listLiveOrders and statusBatch answer from the dry-run state, per market and in query order', async () => {
    const h = harness();
    const bid = await h.dry.placeOrder(request());
    h.clock.now = T0 + 500;
    const ask = await h.dry.placeOrder(request({ clientOrderId: 'om-1a2b3c4d-ask-0-k2', side: 'SELL', priceTicks: 550, tokenId: '101' }));
    await h.dry.placeOrder(request({ marketSlug: 'eth', clientOrderId: 'om-99999999-bid-0-k3', tokenId: '201' }));
    const live = await h.dry.listLiveOrders('btc');
    expect(live.map((o) => [o.orderId, o.clientOrderId, o.side, o.priceTicks, o.remainingRaw, o.status, o.createdAtMs])).toEqual([
      [bid.orderId, 'om-1a2b3c4d-bid-0-k1', 'BUY', 450, 10_000_000, 'LIVE', T0],
      [ask.orderId, 'om-1a2b3c4d-ask-0-k2', 'SELL', 550, 10_000_000, 'LIVE', T0 + 500],
    ]);
    const results = await h.dry.statusBatch([{ clientOrderId: 'om-1a2b3c4d-ask-0-k2' }, { orderId: 'unknown' }, { orderId: bid.orderId }]);
    expect(results.map((r) => [r.outcome, r.outcome === 'found' ? r.order.orderId : null])).toEqual([
      ['found', ask.orderId],
      ['not_found', null],
      ['found', bid.orderId],
    ]);
    expect(results[1]!.query).toEqual({ orderId: 'unknown' });
    expect(h.real.calls).toEqual([]);
  });

  it('cancels succeed locally: the orders leave the dry-run state, nothing is sent', async () => {
    const h = harness();
    const bid = await h.dry.placeOrder(request());
    const ask = await h.dry.placeOrder(request({ clientOrderId: 'om-1a2b3c4d-ask-0-k2', side: 'SELL', priceTicks: 550 }));
    expect(await h.dry.cancelOrders('btc', [bid.orderId])).toEqual({ canceled: [bid.orderId], failed: [] });
    expect((await h.dry.listLiveOrders('btc')).map((o) => o.orderId)).toEqual([ask.orderId]);
    expect((await h.dry.statusBatch([{ orderId: bid.orderId }]))[0]!.outcome).toBe('not_found');
    expect(h.logs.some((l) => l['msg'] === 'dry-run: would cancel' && l['orders'] === 1)).toBe(true);
    expect(h.real.calls).toEqual([]);
  });

  it('cancelAll cancels the dry-run orders of that market only', async () => {
    const h = harness();
    const btc = await h.dry.placeOrder(request());
    const eth = await h.dry.placeOrder(request({ marketSlug: 'eth', clientOrderId: 'om-99999999-bid-0-k3', tokenId: '201' }));
    expect(await h.dry.cancelAll('btc')).toEqual({ canceled: [btc.orderId], failed: [] });
    expect(await h.dry.listLiveOrders('btc')).toEqual([]);
    expect((await h.dry.listLiveOrders('eth')).map((o) => o.orderId)).toEqual([eth.orderId]);
    expect(h.real.calls).toEqual([]);
  });

  it('cancelAcrossMarkets cancels each market\'s dry-run orders locally (a log line per market); nothing is sent', async () => {
    const h = harness();
    const btc = await h.dry.placeOrder(request());
    const keep = await h.dry.placeOrder(request({ clientOrderId: 'om-1a2b3c4d-ask-0-k2', side: 'SELL', priceTicks: 550 }));
    const eth = await h.dry.placeOrder(request({ marketSlug: 'eth', clientOrderId: 'om-99999999-bid-0-k3', tokenId: '201' }));
    const result = await h.dry.cancelAcrossMarkets(new Map([['btc', [btc.orderId]], ['eth', [eth.orderId]], ['sol', []]]));
    expect(result).toEqual({ canceled: [btc.orderId, eth.orderId], failed: [] });
    expect((await h.dry.listLiveOrders('btc')).map((o) => o.orderId)).toEqual([keep.orderId]);
    expect(await h.dry.listLiveOrders('eth')).toEqual([]);
    expect(h.logs.filter((l) => l['msg'] === 'dry-run: would cancel').map((l) => l['market'])).toEqual(['btc', 'eth']);
    expect(h.real.calls).toEqual([]);
  });

  it('cancelByClientOrderId cancels the order resting under that id; an id never placed is the venue\'s 404', async () => {
    const h = harness();
    const bid = await h.dry.placeOrder(request());
    expect(await h.dry.cancelByClientOrderId('btc', 'om-1a2b3c4d-bid-0-k1')).toEqual({ canceled: ['om-1a2b3c4d-bid-0-k1'], failed: [] });
    expect((await h.dry.statusBatch([{ orderId: bid.orderId }]))[0]!.outcome).toBe('not_found');
    const refused = await h.dry.cancelByClientOrderId('btc', 'om-1a2b3c4d-bid-0-k1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(VenueRequestError);
    expect(refused).toMatchObject({ operation: 'cancelByClientOrderId', status: 404 });
    expect(h.real.calls).toEqual([]);
  });

  it('maintenanceStatus passes through to the real venue, errors included', async () => {
    const h = harness();
    expect(await h.dry.maintenanceStatus()).toEqual({ mode: 'post_only', resumeAtMs: T0 + 60_000 });
    const refused = new VenueRequestError('maintenanceStatus', 500, 'down');
    h.real.status = refused;
    await expect(h.dry.maintenanceStatus()).rejects.toBe(refused);
    expect(h.real.calls).toEqual(['maintenanceStatus', 'maintenanceStatus']);
  });
});

/**
 * FeedReactions.connectionChanged: the ledger's catch-up after a connect (`LedgerSync.afterGap`, which reads the
 * venue's filled sizes and books stand-ins for what the ledger lacks) runs only once the executor has synced its
 * markets — on the first connect its start-up sync, after a reconnect the resyncs. Run before, it counted a trade
 * twice: its MATCHED frame, held for an order not adopted yet, was booked after the stand-in the read had made
 * (chaos crash-restart, session 32).
 */
import pino from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FeedReactions, type FeedReactionsOptions } from '../../../src/app/feed-reactions.js';
import { TradedMarkets } from '../../../src/markets/traded-markets.js';
import type { FeedConnectionState } from '../../../src/book/index.js';
import { createMetrics } from '../../../src/metrics/metrics.js';
import type { MarketSyncReport } from '../../../src/orders/executor-types.js';

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}
function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const connected = (connects: number): FeedConnectionState => ({ status: 'connected', sinceMs: 0, downSinceMs: null, lastConnectedAtMs: 0, connects } as FeedConnectionState);

function rig() {
  const events: string[] = [];
  const started = deferred<void>();
  const resynced = deferred<MarketSyncReport>();
  const options = {
    executor: {
      whenStarted: () => started.promise,
      resync: (slug: string) => {
        events.push(`resync ${slug}`);
        return resynced.promise;
      },
    },
    markets: new TradedMarkets([{ id: 1, slug: 'm-1' }], (m) => ({ slug: m.slug }) as never),
    staleGuard: { socketUp: () => undefined, socketDown: () => undefined },
    ledgerSync: {
      afterGap: () => {
        events.push('afterGap');
        return Promise.resolve(0);
      },
    },
    metrics: createMetrics({ registry: new Registry(), collectDefault: false }),
    log: pino({ level: 'silent' }),
    stopping: () => false,
  } as unknown as FeedReactionsOptions;
  return { reactions: new FeedReactions(options), events, started, resynced };
}

describe('the ledger catch-up after a connect', () => {
  it('on the first connect waits for the executor\'s start-up sync', async () => {
    const { reactions, events, started } = rig();
    reactions.connectionChanged(connected(1));
    await flush();
    expect(events).toEqual([]);
    started.resolve();
    await flush();
    expect(events).toEqual(['afterGap']);
  });

  it('after a reconnect waits for the markets\' resyncs', async () => {
    const { reactions, events, started, resynced } = rig();
    started.resolve();
    reactions.connectionChanged(connected(1));
    await flush();
    reactions.connectionChanged(connected(2));
    await flush();
    expect(events).toEqual(['afterGap', 'resync m-1']);
    resynced.resolve({ marketSlug: 'm-1', ok: true, adopted: 0, canceled: 0, foreign: 0, error: null });
    await flush();
    expect(events).toEqual(['afterGap', 'resync m-1', 'afterGap']);
  });
});

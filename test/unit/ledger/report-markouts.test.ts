/**
 * `report`'s markout section through its public entry (runReport on a ledger file): per market and per strategy,
 * realized spread, mean markout per horizon, the adverse-selection share, fees, rewards, missing and pending samples,
 * each with its unit; and the counts add up: how many booked fills are judged, and why the others are not.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReport } from '../../../src/ledger/report.js';
import { openLedger } from '../../../src/ledger/store.js';
import type { NewMarkoutRow } from '../../../src/ledger/markouts-repo.js';
import { fillInput, makeTempDir, T0 } from '../../support/ledger-fixtures.js';

const temp = makeTempDir('report-markouts-');
afterAll(() => temp.cleanup());
let db = '';

const row = (fillId: number, horizonMs: number, reference: 'mid' | 'model', refMicros: number | null): NewMarkoutRow => ({
  fillId,
  horizonMs,
  reference,
  refMicros,
  missingReason: refMicros === null ? 'bot-down' : null,
  sampledAtMs: T0 + horizonMs,
});

beforeAll(() => {
  db = join(temp.dir, 'ledger.sqlite');
  const ledger = openLedger({ path: db, now: () => T0 });
  ledger.markouts.startFillId();
  // Fill 1: BUY YES 10 at 0.500, fee 0.02, judged against mid and model. Fill 2: SELL YES 10 at 0.520 (mid only).
  ledger.recordFill(fillInput({ tradeEventId: 't1', marketSlug: 'btc-above', feeRaw: 20_000 }));
  ledger.recordFill(fillInput({ tradeEventId: 't2', orderId: 'order-2', marketSlug: 'eth-5k', side: 'SELL', priceTicks: 520 }));
  // Fill 3: booked after markouts began but never registered (a fill during the shutdown's cancels, after the sampler stopped).
  ledger.recordFill(fillInput({ tradeEventId: 't3', orderId: 'order-3', marketSlug: 'eth-5k', side: 'BUY', priceTicks: 510 }));
  ledger.markouts.write({
    register: [
      { fillId: 1, strategy: 'fixed-spread', references: ['mid', 'model'] },
      { fillId: 2, strategy: 'glft', references: ['mid'] },
    ],
    rows: [
      row(1, 0, 'mid', 510_000),
      row(1, 1_000, 'mid', 505_000),
      row(1, 10_000, 'mid', 500_000),
      row(1, 60_000, 'mid', 506_000),
      row(1, 0, 'model', 530_000),
      row(2, 0, 'mid', 500_000),
      row(2, 1_000, 'mid', null),
    ],
    complete: [],
  });
  ledger.close();
});

describe('report: markouts', () => {
  it('table: per market and per strategy, per reference', async () => {
    const text = await runReport({ db, nowMs: T0 + 120_000, wide: true });
    const section = text.slice(text.indexOf('Markouts'));
    expect(section).toBe(`Markouts (mid: book mid without own orders, model: fair value; spread: Σ markout at 0s)
Judged 2 of the 3 fills booked in this report; not judged: 1 booked while the bot was stopping (its markout sampler stops before the cancels), or not yet reached by a running bot's sampler.
market     ref    fills  fees  rewards  spread    mean 0s    mean 1s   mean 10s   mean 60s    mean 5m      adverse  missing  pending
                  count  USDC     USDC    USDC  USDC/fill  USDC/fill  USDC/fill  USDC/fill  USDC/fill  % of spread  samples  samples
---------  -----  -----  ----  -------  ------  ---------  ---------  ---------  ---------  ---------  -----------  -------  -------
btc-above  mid        1  0.02      n/a     0.1        0.1       0.05          0       0.06          -        40.0%        0        1
btc-above  model      1  0.02      n/a     0.3        0.3          -          -          -          -            -        0        4
eth-5k     mid        1     0      n/a     0.2        0.2          -          -          -          -            -        1        3

strategy      ref    fills  fees  rewards  spread    mean 0s    mean 1s   mean 10s   mean 60s    mean 5m      adverse  missing  pending
                     count  USDC     USDC    USDC  USDC/fill  USDC/fill  USDC/fill  USDC/fill  USDC/fill  % of spread  samples  samples
------------  -----  -----  ----  -------  ------  ---------  ---------  ---------  ---------  ---------  -----------  -------  -------
fixed-spread  mid        1  0.02      n/a     0.1        0.1       0.05          0       0.06          -        40.0%        0        1
fixed-spread  model      1  0.02      n/a     0.3        0.3          -          -          -          -            -        0        4
glft          mid        1     0      n/a     0.2        0.2          -          -          -          -            -        1        3

mean Ns: the mean markout per fill N after it (positive: the price moved the fill's way); spread: Σ markout at 0s.
adverse: share of the realized spread lost by 60s, (Σ markout 0s − Σ markout 60s) ÷ Σ markout 0s over fills with both known.
rewards and rebates: in the Earnings section (estimates), once the ledger holds any.
missing and pending count samples: one per fill, horizon and reference. missing: recorded as unknown (bot down, no
reference, late). pending: not taken yet: the horizon is not due yet, or the bot stopped before it was (a later run
on this ledger records those as missing, bot-down; a paper run starts a fresh ledger, so they stay pending).
`);
  });

  it('json: a markouts key beside the PnL; --market narrows it', async () => {
    const parsed: unknown = JSON.parse(await runReport({ db, format: 'json', nowMs: T0, market: 'eth-5k' }));
    expect(parsed).toMatchObject({
      markets: [{ market: 'eth-5k', fills: 2 }],
      markouts: {
        coverage: { booked: 2, judged: 1, notJudged: { beforeMarkouts: 0, afterSamplerStopOrNotYetReached: 1 } },
        byMarket: [
          {
            key: 'eth-5k',
            fills: 1,
            fees: '0',
            rewards: null,
            references: [
              {
                reference: 'mid',
                realizedSpread: '0.2',
                adverseSelectionShare: null,
                horizons: [
                  { horizon: '0s', known: 1, missing: 0, pending: 0, mean: '0.2' },
                  { horizon: '1s', known: 0, missing: 1, pending: 0, mean: null },
                  { horizon: '10s', pending: 1 },
                  { horizon: '60s', pending: 1 },
                  { horizon: '5m', pending: 1 },
                ],
              },
            ],
          },
        ],
        byStrategy: [{ key: 'glft' }],
      },
    });
  });
});

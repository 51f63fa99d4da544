import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerSchemaError, ReportArgsError } from '../../../src/ledger/errors.js';
import { DEFAULT_LEDGER_PATH, parseReportArgs, parseSince, runReport } from '../../../src/ledger/report.js';
import { makeTempDir, T0 } from '../../support/ledger-fixtures.js';
import { REPORT_NOW, writeReportFixture } from '../../support/ledger-report-fixture.js';
import { missingLines, quotedOutputsCheckedBy } from '../../support/quoted-outputs.js';

const temp = makeTempDir();
let db = '';
beforeAll(() => {
  db = writeReportFixture(temp.dir);
});
afterAll(() => temp.cleanup());

/** The fixture's fills were booked without the markout sampler: none is judged, and the report says why. */
const NO_MARKOUTS = `
Markouts (mid: book mid without own orders, model: fair value; spread: Σ markout at 0s)
Judged 0 of the 7 fills booked in this report; not judged: 7 booked before markouts began on this ledger.
`;

const LEGEND = `
fills: fills booked (failed ones excluded); volume: Σ price × size; fees: taker fees paid.
YES, NO: shares held now (0 once redeemed); avg: their average cost; mark: the last book mid (or the resolution).
realized: PnL of shares sold, merged or settled; unrealized: shares held, at the mark;
net pnl: realized + unrealized − fees. Rounded figures (USDC at cents) may not add up to the rounded total.
`;

/** The account's capital by state (src/ledger/report-capital.ts): no chain check, no on-chain transaction in the fixture. */
const CAPITAL = `
capital by state (USDC, as of 2025-01-16 00:00 UTC)
  free (not read: no chain check yet)                  -
  locked in open orders                             0.00
  in open positions (cost)                          6.90
  in resolved markets, not yet redeemed (1 market)  3.00
  redeemed today (on-chain and API, UTC day)        0.00
  merged today (on-chain, UTC day)                  0.00
  gas today: 0.000000000 ETH = 0.0000 USDC (0 transactions)
  gas in all: 0.000000000 ETH = 0.0000 USDC (0 transactions)
`;

/** The default: USDC at cents (half away from zero: 1.015 → 1.02), prices at the tick, shares at 2 decimals. */
const TABLE = `outcome-maker ledger report
as of:  2025-01-16T00:00:00.000Z
since:  the beginning
market: all

market    fills  volume  fees     YES  YES avg      NO   NO avg  mark         realized  unrealized  net pnl
          count    USDC  USDC  shares  USDC/sh  shares  USDC/sh  USDC/sh          USDC        USDC     USDC
--------  -----  ------  ----  ------  -------  ------  -------  -----------  --------  ----------  -------
btc-100k      5   12.90  0.04    9.00    0.500    4.00    0.450  0.550            0.60        0.45     1.02
eth-5k        1    0.60  0.00    2.00    0.300    0.00        -  no mark          0.00     no mark        -
sol-1k        1    0.60  0.00    0.00        -    3.00    0.200  resolved NO      2.40        0.00     2.40
--------  -----  ------  ----  ------  -------  ------  -------  -----------  --------  ----------  -------
TOTAL         7   14.10  0.04                                                     3.00        0.45     3.42

Unrealized and net totals exclude markets with no mark: eth-5k.

Resolved, not yet redeemed: 3.00 USDC.
${LEGEND}${CAPITAL}${NO_MARKOUTS}`;

/** --wide: the exact decimals of the raw integers. */
const WIDE_TABLE = `outcome-maker ledger report
as of:  2025-01-16T00:00:00.000Z
since:  the beginning
market: all

market    fills  volume   fees     YES  YES avg      NO   NO avg  mark         realized  unrealized  net pnl
          count    USDC   USDC  shares  USDC/sh  shares  USDC/sh  USDC/sh          USDC        USDC     USDC
--------  -----  ------  -----  ------  -------  ------  -------  -----------  --------  ----------  -------
btc-100k      5    12.9  0.035       9      0.5       4     0.45  0.55              0.6        0.45    1.015
eth-5k        1     0.6      0       2      0.3       0        -  no mark             0     no mark        -
sol-1k        1     0.6      0       0        -       3      0.2  resolved NO       2.4           0      2.4
--------  -----  ------  -----  ------  -------  ------  -------  -----------  --------  ----------  -------
TOTAL         7    14.1  0.035                                                        3        0.45    3.415

Unrealized and net totals exclude markets with no mark: eth-5k.

Resolved, not yet redeemed: 3 USDC.
${LEGEND}${CAPITAL}${NO_MARKOUTS}`;

const CSV = `market,fills,volume_usdc,fees_usdc,yes_position_shares,yes_avg_cost_usdc_per_share,no_position_shares,no_avg_cost_usdc_per_share,mark_usdc_per_share,realized_usdc,unrealized_usdc,net_pnl_usdc
btc-100k,5,12.9,0.035,9,0.5,4,0.45,0.55,0.6,0.45,1.015
eth-5k,1,0.6,0,2,0.3,0,,no mark,0,,
sol-1k,1,0.6,0,0,,3,0.2,resolved NO,2.4,0,2.4
TOTAL,7,14.1,0.035,,,,,,3,0.45,3.415
`;

const JSON_DOCUMENT = {
  units: {
    fills: 'count',
    volume: 'USDC',
    fees: 'USDC',
    position: 'shares',
    avgCost: 'USDC per share',
    mark: 'USDC per share',
    redeemed: 'USDC',
    receivable: 'USDC',
    tradingRealized: 'USDC',
    resolutionPnl: 'USDC',
    realized: 'USDC',
    unrealized: 'USDC',
    netPnl: 'USDC',
  },
  asOf: '2025-01-16T00:00:00.000Z',
  since: null,
  market: null,
  markets: [
    {
      market: 'btc-100k',
      fills: 5,
      volume: '12.9',
      fees: '0.035',
      yes: { position: '9', avgCost: '0.5' },
      no: { position: '4', avgCost: '0.45' },
      mark: '0.55',
      markAt: '2025-01-15T12:00:00.008Z',
      resolution: null,
      redeemed: '0',
      receivable: '0',
      tradingRealized: '0.6',
      resolutionPnl: '0',
      realized: '0.6',
      unrealized: '0.45',
      netPnl: '1.015',
    },
    {
      market: 'eth-5k',
      fills: 1,
      volume: '0.6',
      fees: '0',
      yes: { position: '2', avgCost: '0.3' },
      no: { position: '0', avgCost: null },
      mark: null,
      markAt: null,
      resolution: null,
      redeemed: '0',
      receivable: '0',
      tradingRealized: '0',
      resolutionPnl: '0',
      realized: '0',
      unrealized: null,
      netPnl: null,
    },
    {
      market: 'sol-1k',
      fills: 1,
      volume: '0.6',
      fees: '0',
      yes: { position: '0', avgCost: null },
      no: { position: '3', avgCost: '0.2' },
      mark: null,
      markAt: null,
      resolution: { winningOutcome: 'NO', payoutNumerators: [0, 1], resolvedAt: '2025-01-15T12:00:00.009Z' },
      redeemed: '0',
      receivable: '3',
      tradingRealized: '0',
      resolutionPnl: '2.4',
      realized: '2.4',
      unrealized: '0',
      netPnl: '2.4',
    },
  ],
  totals: {
    fills: 7,
    volume: '14.1',
    fees: '0.035',
    realized: '3',
    unrealized: '0.45',
    netPnl: '3.415',
    receivable: '3',
    unmarkedMarkets: ['eth-5k'],
  },
};

describe('report', () => {
  it('table', async () => {
    expect(await runReport({ db, nowMs: REPORT_NOW })).toBe(TABLE);
  });

  it('the example docs/ledger.md quotes is what the report prints for this fixture', async () => {
    const quoted = quotedOutputsCheckedBy('test/unit/ledger/report.test.ts');
    expect(quoted.map((q) => q.file)).toEqual(['docs/ledger.md']);
    const printed = await runReport({ db, nowMs: REPORT_NOW });
    for (const q of quoted) expect(missingLines(q.lines, printed), `${q.file}:${q.line}`).toEqual([]);
  });

  it('table --wide', async () => {
    expect(await runReport({ db, nowMs: REPORT_NOW, wide: true })).toBe(WIDE_TABLE);
  });

  it('json', async () => {
    const gas = { eth: '0.000000000', wei: '0', usdc: 0, transactions: 0 };
    const document = {
      ...JSON_DOCUMENT,
      capital: { asOf: '2025-01-16T00:00:00.000Z', freeUsdc: null, walletUsdc: null, openOrdersUsdc: 0, openPositionsUsdc: 6.9, unredeemedUsdc: 3, unredeemedMarkets: 1, redeemedTodayUsdc: 0, apiRedeemedTodayUsdc: 0, mergedTodayUsdc: 0, gasToday: gas, gasTotal: gas },
      markouts: {
        units: { fees: 'USDC', realizedSpread: 'USDC', adverseSelection: 'USDC', total: 'USDC', mean: 'USDC per fill', adverseSelectionShare: 'fraction of realizedSpread', known: 'samples', missing: 'samples', pending: 'samples' },
        coverage: { booked: 7, judged: 0, notJudged: { beforeMarkouts: 7, afterSamplerStopOrNotYetReached: 0 }, text: 'Judged 0 of the 7 fills booked in this report; not judged: 7 booked before markouts began on this ledger.' },
        byMarket: [],
        byStrategy: [],
      },
      calibration: {
        units: { offsetMs: 'ms before settlement (null: every offset)', n: 'rows with both predictions', logLoss: 'nats per row (mean)', brier: 'mean squared error of P(YES)' },
        rows: [],
      },
    };
    expect(await runReport({ db, format: 'json', nowMs: REPORT_NOW })).toBe(`${JSON.stringify(document, null, 2)}\n`);
  });

  it('csv', async () => {
    expect(await runReport({ db, format: 'csv', nowMs: REPORT_NOW })).toBe(CSV);
  });

  it('--since and --market narrow the activity; positions stay current', async () => {
    const text = await runReport({ db, format: 'csv', nowMs: REPORT_NOW, sinceMs: T0 + 3, market: 'btc-100k' });
    // From t3 on: the sell (3.6, realized 0.6) and the NO buy (1.8); no fee in the period.
    expect(text).toBe(`market,fills,volume_usdc,fees_usdc,yes_position_shares,yes_avg_cost_usdc_per_share,no_position_shares,no_avg_cost_usdc_per_share,mark_usdc_per_share,realized_usdc,unrealized_usdc,net_pnl_usdc
btc-100k,2,5.4,0,9,0.5,4,0.45,0.55,0.6,0.45,1.05
TOTAL,2,5.4,0,,,,,,0.6,0.45,1.05
`);
    expect(await runReport({ db, nowMs: REPORT_NOW, market: 'nope' })).toBe(`outcome-maker ledger report
as of:  2025-01-16T00:00:00.000Z
since:  the beginning
market: nope

No fills recorded for nope.

Markouts (mid: book mid without own orders, model: fair value; spread: Σ markout at 0s)
Judged 0 of the 0 fills booked in this report.
`);
  });

  it('refuses a database that does not exist, without creating it', async () => {
    const missing = join(temp.dir, 'missing', 'ledger.sqlite');
    await expect(runReport({ db: missing })).rejects.toBeInstanceOf(LedgerSchemaError);
    await expect(runReport({ db: missing })).rejects.toThrow(/no ledger database/);
  });
});

describe('report arguments', () => {
  const now = Date.UTC(2025, 0, 16, 15, 30);

  it('parses every option, in both spellings', () => {
    expect(parseReportArgs(['--db', 'x.sqlite', '--since=24h', '--market', 'btc', '--format=json'], { nowMs: now })).toEqual({
      db: 'x.sqlite',
      sinceMs: now - 24 * 3_600_000,
      market: 'btc',
      format: 'json',
      nowMs: now,
    });
    expect(parseReportArgs([], { nowMs: now })).toEqual({ db: DEFAULT_LEDGER_PATH, sinceMs: undefined, market: undefined, format: 'table', nowMs: now });
    expect(parseReportArgs([], { nowMs: now, db: 'cfg.sqlite' }).db).toBe('cfg.sqlite');
  });

  it('rejects unknown options, missing values, repeats and bad formats with a typed error', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--verbose'], /unknown option/],
      [['--db'], /--db: needs a value/],
      [['--db', '--format', 'csv'], /--db: needs a value/],
      [['--format', 'xml'], /expected one of table, json, csv/],
      [['--market', 'a', '--market', 'b'], /more than once/],
      [['--since', 'yesterday-ish'], /--since/],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseReportArgs(argv, { nowMs: now })).toThrow(ReportArgsError);
      expect(() => parseReportArgs(argv, { nowMs: now })).toThrow(message);
    }
  });

  it('understands today, ages, UTC dates, zoned date-times and epoch ms', () => {
    expect(parseSince('today', now)).toBe(Date.UTC(2025, 0, 16));
    expect(parseSince('90m', now)).toBe(now - 90 * 60_000);
    expect(parseSince('7d', now)).toBe(now - 7 * 86_400_000);
    expect(parseSince('2025-01-10', now)).toBe(Date.UTC(2025, 0, 10));
    expect(parseSince('2025-01-10T08:00:00+02:00', now)).toBe(Date.UTC(2025, 0, 10, 6));
    expect(parseSince('1736899200000', now)).toBe(1736899200000);
    expect(() => parseSince('2025-01-10T08:00:00', now)).toThrow(/with zone/);
    expect(() => parseSince('2025-13-45', now)).toThrow(ReportArgsError);
  });
});

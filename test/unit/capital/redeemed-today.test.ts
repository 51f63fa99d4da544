/**
 * "Redeemed today" in the capital by state counts every redemption of the UTC day: the capital core's on-chain ones
 * (an externally owned wallet's) AND the API's (a server-managed wallet's: the settler records them without a
 * transaction of the bot's), through the report's public entry (`runReport`, table and JSON). A redemption of
 * yesterday is not today's; an on-chain one is never counted twice (it is both a capital transaction and a redemption).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CapitalMarketRef, Hex } from '../../../src/capital/port.js';
import { openLedger, runReport } from '../../../src/ledger/index.js';
import { fillInput, makeTempDir } from '../../support/ledger-fixtures.js';

const USDC = 1_000_000;
const DAY = 86_400_000;
const NOW = 20_100 * DAY + 15 * 3_600_000; // 15:00 UTC
const HASH: Hex = `0x${'cd'.repeat(32)}`;

function ref(slug: string): CapitalMarketRef {
  return { slug, conditionId: `0x${'ab'.repeat(32)}`, negRisk: false, adapter: null, exchange: `0x${'11'.repeat(20)}`, yesTokenId: `${slug}-y`, noTokenId: `${slug}-n` };
}

describe('redeemed today: on-chain and API redemptions', () => {
  it('the report sums both for the UTC day and says which part the API redeemed', async ({ onTestFinished }) => {
    const { dir, cleanup } = makeTempDir('om-redeemed-today-');
    onTestFinished(cleanup);
    const db = join(dir, 'ledger.db');
    const ledger = openLedger({ path: db, now: () => NOW });
    const hold = (slug: string, sizeRaw: number, atMs: number): void => {
      ledger.recordFill(fillInput({ tradeEventId: `t-${slug}`, marketSlug: slug, tokenId: `${slug}-y`, priceTicks: 400, sizeRaw, atMs }));
      ledger.recordResolution(slug, { winningOutcomeIndex: 0 }, atMs + 1);
    };
    // A server-managed wallet's market, redeemed through the API this morning (as src/capital/settler.ts records it).
    hold('api-today', 10 * USDC, NOW - 5 * 3_600_000);
    ledger.recordRedemption('api-today', 10 * USDC, { atMs: NOW - 3_600_000 });
    // The same, yesterday: not today's.
    hold('api-yesterday', 2 * USDC, NOW - 2 * DAY);
    ledger.recordRedemption('api-yesterday', 2 * USDC, { atMs: NOW - DAY });
    // An externally owned wallet's market, redeemed on-chain by the capital core.
    hold('chain-today', 5 * USDC, NOW - 4 * 3_600_000);
    const key = 'redeem:chain-today:1';
    ledger.journalCapitalTx({ key, kind: 'redeem', market: ref('chain-today'), amountRaw: 5 * USDC }, { hash: HASH, nonce: 0 }, NOW - 1_800_000);
    ledger.bookCapitalTx({ key, kind: 'redeem', marketSlug: 'chain-today', hash: HASH, block: 7, usdcInRaw: 5 * USDC, yesBurnedRaw: 5 * USDC, noBurnedRaw: 0, gasWei: '0', gasUsdcRaw: 0, atMs: NOW - 1_800_000 });
    ledger.close();

    const table = await runReport({ db, nowMs: NOW });
    expect(table).toMatch(/\n {2}redeemed today \(on-chain and API, UTC day\) +15\.00\n/);
    const json = JSON.parse(await runReport({ db, nowMs: NOW, format: 'json' })) as { capital: Record<string, unknown> };
    expect(json.capital).toMatchObject({ redeemedTodayUsdc: 15, apiRedeemedTodayUsdc: 10, unredeemedUsdc: 0 });
  });
});

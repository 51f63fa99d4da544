/**
 * Outside changes end to end (issue 39 item 7): the whole bot against the simulator, whose GET /portfolio/history lists
 * claims, merges and splits as its engine does them (src/sim/server/routes-history.ts). A split and a merge made "by
 * hand" on the simulator (as the user would in the web app) are booked by the bot's history read as cash flows —
 * each exactly once, however many reads follow (the rule for the bot's own entries: test/integration/account-history.test.ts).
 */
import { describe, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { cleanupAfterTest, startQuotingBot, tempDatabasePath, waitFor, when } from '../support/bot-harness.js';

const BOOKED = 'account history: an outside change booked as a cash flow';

describe('outside changes through the simulator\'s history', () => {
  it('a split and a merge by hand are each booked once as a cash flow', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const database = tempDatabasePath(cleanup);
    const { sim, slug, running } = await startQuotingBot(cleanup, { database, maintenance: { historyPollSec: 0.3 } });
    const profileId = sim.demoAccount.profileId;
    const conditionId = sim.engine.market(slug)?.conditionId;
    if (conditionId === undefined) throw new Error(`market ${slug} has no condition id`);
    const usdcNow = (): number => sim.engine.balances(profileId)?.usdc.totalRaw ?? Number.NaN;
    const usdcBefore = usdcNow();

    // By hand: 5 USDC split into 5 YES + 5 NO, then 3 sets merged back into 3 USDC.
    expect(sim.engine.splitSets(profileId, conditionId, 5_000_000)).toMatchObject({ ok: true, usdcRaw: 5_000_000 });
    expect(sim.engine.mergeSets(profileId, conditionId, 3_000_000)).toMatchObject({ ok: true, usdcRaw: 3_000_000 });
    expect(usdcNow()).toBe(usdcBefore - 2_000_000);
    expect(sim.engine.capitalActions(profileId).map((a) => a.kind)).toEqual(['Split', 'Merge']);

    const bookedLines = (): string[] => running.logs.filter((line) => line.includes(BOOKED));
    await waitFor(() => when(bookedLines().length >= 2), 8_000, 'both outside changes booked', () => running.warnings().slice(-5));
    // Several more reads of the same history: nothing booked twice.
    const reads = (): number => sim.control.requestLog().filter((e) => e.path === '/portfolio/history' && e.status === 200).length;
    const readsThen = reads();
    await waitFor(() => when(reads() >= readsThen + 3), 8_000, 'three more history reads');
    expect(bookedLines()).toHaveLength(2);

    await running.stop();
    const ledger = openLedger({ path: database, mustExist: true });
    try {
      const flows = ledger.history.outsideCashFlows();
      expect(flows.byKind).toEqual([
        { kind: 'merge', entries: 1, cashFlowRaw: 3_000_000 },
        { kind: 'split', entries: 1, cashFlowRaw: -5_000_000 },
      ]);
      expect(flows.totalRaw).toBe(-2_000_000);
    } finally {
      ledger.close();
    }
  });
});

/** The pure part of cancel-replace: pairing a plan's cancels with placements, and the outcome → transition mapping. */
import { describe, expect, it } from 'vitest';
import { outcomeEffects, pairReplacements, placementEffects } from '../../../src/orders/cancel-replace.js';
import { isLegalTransition } from '../../../src/orders/order-state.js';
import type { PlannedCancel, PlannedPlace } from '../../../src/orders/reconcile.js';
import type { CancelHalfStatus, ReplacementHalfStatus } from '../../../src/orders/venue-port.js';

const cancel = (slot: string, n = 1): PlannedCancel => ({ slot, clientOrderId: `c-${slot}-${n}`, orderId: `o-${slot}-${n}`, reason: 'price-changed' });
const place = (slot: string): PlannedPlace => ({ slot, intent: { slot, token: 'YES', side: 'BUY', priceTicks: 500, sizeRaw: 1_000_000 } });

describe('pairReplacements', () => {
  it('pairs a slot whose one cancel is followed by a placement; the rest stay plain cancels', () => {
    const split = pairReplacements(
      { cancels: [cancel('bid-0'), cancel('bid-1'), cancel('ask-0', 1), cancel('ask-0', 2)] },
      { places: [place('bid-0'), place('ask-0'), place('ask-9')] },
    );
    expect(split.replacements).toEqual([{ cancel: cancel('bid-0'), place: place('bid-0') }]);
    // bid-1: nothing to place after (no intent, cool-off, mode...); ask-0: two orders in the slot.
    expect(split.cancels).toEqual([cancel('bid-1'), cancel('ask-0', 1), cancel('ask-0', 2)]);
  });

  it('pairs nothing when there is nothing to place', () => {
    expect(pairReplacements({ cancels: [cancel('bid-0')] }, { places: [] })).toEqual({ replacements: [], cancels: [cancel('bid-0')] });
  });
});

describe('outcomeEffects: every outcome pair maps onto legal transitions', () => {
  const cancels: CancelHalfStatus[] = ['SUCCESS', 'FAILURE', 'UNKNOWN'];
  const replacements: ReplacementHalfStatus[] = ['SUCCESS', 'FAILURE', 'UNKNOWN', 'NOT_ATTEMPTED'];

  it.each(cancels.flatMap((c) => replacements.map((r) => [c, r] as const)))('%s / %s', (c, r) => {
    const effects = outcomeEffects(c, r);
    // The old order was moved to pending-cancel before sending; the replacement inserted as pending-new.
    if (effects.old.cause !== null) expect(isLegalTransition('pending-cancel', effects.old.to, effects.old.cause)).toBe(true);
    else expect(effects.old.to).toBe('pending-cancel');
    expect(isLegalTransition('pending-new', effects.fresh.to, effects.fresh.cause)).toBe(true);
  });

  it('cancel SUCCESS: the old order is canceled; the replacement follows its own outcome', () => {
    expect(outcomeEffects('SUCCESS', 'SUCCESS')).toMatchObject({ old: { kind: 'canceled' }, fresh: { kind: 'apply-answer' }, slotAtRisk: false });
    expect(outcomeEffects('SUCCESS', 'FAILURE')).toMatchObject({ old: { kind: 'canceled' }, fresh: { kind: 'rejected' }, slotAtRisk: false });
    expect(outcomeEffects('SUCCESS', 'UNKNOWN')).toMatchObject({ old: { kind: 'canceled' }, fresh: { kind: 'unknown' }, slotAtRisk: false });
    expect(outcomeEffects('SUCCESS', 'NOT_ATTEMPTED')).toMatchObject({ old: { kind: 'canceled' }, fresh: { kind: 'rejected' } });
  });

  it('cancel FAILURE or UNKNOWN: the old order is looked up; under STOP_ON_FAILURE the replacement was not attempted', () => {
    expect(outcomeEffects('FAILURE', 'NOT_ATTEMPTED')).toMatchObject({ old: { kind: 'look-up', to: 'pending-cancel' }, fresh: { kind: 'rejected' }, slotAtRisk: false });
    expect(outcomeEffects('UNKNOWN', 'NOT_ATTEMPTED')).toMatchObject({ old: { kind: 'look-up' }, fresh: { kind: 'rejected' }, slotAtRisk: false });
    // A venue that placed anyway (ALLOW_FAILURE semantics): two orders may rest until the lookup; flagged.
    expect(outcomeEffects('FAILURE', 'SUCCESS').slotAtRisk).toBe(true);
    expect(outcomeEffects('UNKNOWN', 'UNKNOWN')).toMatchObject({ old: { kind: 'look-up' }, fresh: { kind: 'unknown' }, slotAtRisk: true });
  });

  it('a whole request that failed: not sent → old restored, replacement rejected; no answer → both unknown', () => {
    const notSent = outcomeEffects('not-sent');
    expect(notSent).toMatchObject({ old: { kind: 'restored', to: 'live', cause: 'cancel-refused' }, fresh: { kind: 'rejected' }, slotAtRisk: false });
    expect(isLegalTransition('pending-cancel', 'live', 'cancel-refused')).toBe(true);
    expect(outcomeEffects('unknown')).toMatchObject({ old: { kind: 'look-up' }, fresh: { kind: 'unknown' }, slotAtRisk: true });
  });
});

describe('placementEffects (a placement sent as a cancel-replace operation: its cancel half names no real order)', () => {
  it('is read from the replacement half alone: SUCCESS placed, FAILURE rejected, UNKNOWN looked up', () => {
    expect(placementEffects('SUCCESS')).toEqual({ fresh: { kind: 'apply-answer', to: 'live', cause: 'venue-report' }, refused: false });
    expect(placementEffects('FAILURE')).toEqual({ fresh: { kind: 'rejected', to: 'rejected', cause: 'rejected' }, refused: false });
    expect(placementEffects('UNKNOWN')).toEqual({ fresh: { kind: 'unknown', to: 'unknown', cause: 'outcome-unknown' }, refused: false });
    for (const to of ['live', 'rejected', 'unknown'] as const) expect(isLegalTransition('pending-new', to, to === 'live' ? 'venue-report' : to === 'rejected' ? 'rejected' : 'outcome-unknown')).toBe(true);
  });

  it('NOT_ATTEMPTED under ALLOW_FAILURE: never existed, and the venue refuses batch placements', () => {
    expect(placementEffects('NOT_ATTEMPTED')).toEqual({ fresh: { kind: 'rejected', to: 'rejected', cause: 'rejected' }, refused: true });
  });

  it('a whole request not sent: rejected (never existed); without an answer: unknown', () => {
    expect(placementEffects('not-sent')).toMatchObject({ fresh: { kind: 'rejected' }, refused: false });
    expect(placementEffects('unknown')).toMatchObject({ fresh: { kind: 'unknown' }, refused: false });
  });
});

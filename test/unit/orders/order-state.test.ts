import { describe, expect, it } from 'vitest';
import {
  checkTransition,
  exposureSizeRaw,
  IllegalTransitionError,
  isFrozen,
  isLegalTransition,
  isResting,
  isTerminal,
  ORDER_STATES,
  TRANSITION_CAUSES,
  TRANSITIONS,
  type OrderState,
  type TransitionCause,
} from '../../../src/orders/order-state.js';

/** The table written out independently of the module, as the spec of the test. */
const EXPECTED: Record<TransitionCause, readonly string[]> = {
  'venue-report': [
    'pending-new>live',
    'pending-new>partially-filled',
    'pending-new>filled',
    'unknown>live',
    'unknown>partially-filled',
    'unknown>filled',
    'live>partially-filled',
    'live>filled',
    'partially-filled>filled',
    'pending-cancel>filled',
  ],
  fill: [
    'pending-new>partially-filled',
    'pending-new>filled',
    'unknown>partially-filled',
    'unknown>filled',
    'live>partially-filled',
    'live>filled',
    'partially-filled>filled',
    'pending-cancel>filled',
  ],
  'cancel-requested': ['live>pending-cancel', 'partially-filled>pending-cancel'],
  'cancel-refused': ['pending-cancel>live', 'pending-cancel>partially-filled'],
  'venue-canceled': ['pending-new>canceled', 'unknown>canceled', 'live>canceled', 'partially-filled>canceled', 'pending-cancel>canceled'],
  rejected: ['pending-new>rejected', 'unknown>rejected'],
  'outcome-unknown': ['pending-new>unknown'],
  lost: ['unknown>rejected'],
};

describe('order state transition table', () => {
  it('lists exactly the expected transitions', () => {
    const actual = new Set(TRANSITIONS.map((t) => `${t.on}:${t.from}>${t.to}`));
    const expected = new Set(Object.entries(EXPECTED).flatMap(([cause, pairs]) => pairs.map((p) => `${cause}:${p}`)));
    expect(actual).toEqual(expected);
  });

  it('judges every (from, to, cause) combination: legal iff listed, or a repeat of the same state', () => {
    let legal = 0;
    let illegal = 0;
    for (const from of ORDER_STATES) {
      for (const to of ORDER_STATES) {
        for (const cause of TRANSITION_CAUSES) {
          const listed = EXPECTED[cause].includes(`${from}>${to}`);
          const expectLegal = listed || from === to;
          expect(isLegalTransition(from, to, cause), `${cause}: ${from} → ${to}`).toBe(expectLegal);
          const error = checkTransition('cid', from, to, cause);
          if (expectLegal) {
            expect(error).toBeNull();
            legal += 1;
          } else {
            expect(error).toBeInstanceOf(IllegalTransitionError);
            expect(error?.from).toBe(from);
            expect(error?.to).toBe(to);
            expect(error?.trigger).toBe(cause);
            expect(error?.message).toContain(`${from} → ${to}`);
            illegal += 1;
          }
        }
      }
    }
    expect(legal + illegal).toBe(8 * 8 * 8);
    expect(illegal).toBeGreaterThan(400);
  });

  it('never leaves a terminal state, and never treats unknown as rejected on a venue report', () => {
    for (const from of ['filled', 'canceled', 'rejected'] as const) {
      for (const to of ORDER_STATES) {
        if (to === from) continue;
        for (const cause of TRANSITION_CAUSES) expect(isLegalTransition(from, to, cause)).toBe(false);
      }
    }
    expect(isLegalTransition('unknown', 'rejected', 'venue-report')).toBe(false);
    expect(isLegalTransition('unknown', 'rejected', 'venue-canceled')).toBe(false);
    expect(isLegalTransition('unknown', 'rejected', 'lost')).toBe(true);
  });

  it('allows a fill after a cancel was sent, and records a late fill on a canceled order without resurrecting it', () => {
    expect(isLegalTransition('pending-cancel', 'filled', 'fill')).toBe(true);
    expect(isLegalTransition('pending-cancel', 'pending-cancel', 'fill')).toBe(true);
    expect(isLegalTransition('canceled', 'canceled', 'fill')).toBe(true);
    expect(isLegalTransition('canceled', 'partially-filled', 'fill')).toBe(false);
    expect(isLegalTransition('canceled', 'live', 'venue-report')).toBe(false);
  });

  it('classifies states', () => {
    const classes = (s: OrderState): string => `${isTerminal(s) ? 'T' : ''}${isResting(s) ? 'R' : ''}${isFrozen(s) ? 'F' : ''}`;
    expect(Object.fromEntries(ORDER_STATES.map((s) => [s, classes(s)]))).toEqual({
      'pending-new': 'F',
      live: 'R',
      'partially-filled': 'R',
      filled: 'T',
      'pending-cancel': 'F',
      canceled: 'T',
      rejected: 'T',
      unknown: 'F',
    });
  });

  it('counts unknown and pending orders at full size, resting ones at their remainder, finished ones not at all', () => {
    const o = (state: OrderState) => ({ state, sizeRaw: 10_000_000, remainingRaw: 4_000_000 });
    expect(exposureSizeRaw(o('unknown'))).toBe(10_000_000);
    expect(exposureSizeRaw(o('pending-new'))).toBe(10_000_000);
    expect(exposureSizeRaw(o('partially-filled'))).toBe(4_000_000);
    expect(exposureSizeRaw(o('pending-cancel'))).toBe(4_000_000);
    expect(exposureSizeRaw(o('canceled'))).toBe(0);
    expect(exposureSizeRaw(o('filled'))).toBe(0);
  });
});

// The backtest takes the engine's typed order events directly (src/backtest/engine-order-events.ts). It must yield
// exactly what the socket's frame parser yields for the same frames, as the backtest feed did when it re-parsed them:
// checked on every frame of a seeded run (synthetic flow, limit orders, a FOK sweeping several levels, cancels).
import { describe, expect, it } from 'vitest';
import { orderEventOf } from '../../../src/backtest/engine-order-events.js';
import { frameParsers } from '../../../src/exchange/socket-wire.js';
import type { SettlementFrame } from '../../../src/sim/engine/index.js';
import { ALICE, BOB, CAROL, fok, limit, ok, world } from '../../sim/engine/helpers.js';

describe('engine order events → feed order events', () => {
  it('equal the socket parser’s reading of every frame of a seeded run', () => {
    const w = world({ synthetic: { autoStep: false, stepMs: 1000 } }, 3);
    const m = w.m;
    for (const [ticks, shares] of [[480, 3], [470, 5.5], [460, 7]] as const) ok(w.engine.place(limit(m, ALICE, 'NO', 'BUY', 1000 - ticks, shares)));
    ok(w.engine.place(limit(m, BOB, 'NO', 'BUY', 520, 4, { clientOrderId: 'bob-1' })));
    ok(w.engine.place(fok(m, CAROL, 'YES', 'BUY', 9_000_000)));
    const resting = ok(w.engine.place(limit(m, CAROL, 'YES', 'BUY', 300, 2, { clientOrderId: 'carol-rest' })));
    expect(w.engine.cancel(CAROL, resting.order.id).ok).toBe(true);
    for (let i = 0; i < 240; i += 1) {
      w.engine.syntheticStep();
      w.clock.advance(1000);
    }
    const parser = frameParsers();
    const kinds = new Set<string>();
    let offGrid = 0;
    for (const { frame } of w.frames) {
      const parsed = parser.parse('orderEvent', frame);
      if (!parsed.ok || parsed.value.event !== 'orderEvent') throw new Error(`the parser refused ${JSON.stringify(frame)}`);
      const converted = orderEventOf(frame);
      if (!converted.ok) throw new Error(`the conversion refused ${JSON.stringify(frame)}: ${converted.reason}`);
      expect(converted.event).toStrictEqual(parsed.value.frame);
      kinds.add(`${frame.source}:${frame.type}`);
      if (converted.event.priceTicks === null) offGrid += 1;
    }
    expect(w.frames.length).toBeGreaterThan(500);
    for (const kind of ['OME:PLACEMENT', 'OME:EXECUTION', 'OME:CANCELLATION', 'SETTLEMENT:MATCHED', 'SETTLEMENT:MINED']) expect(kinds).toContain(kind);
    // Average prices off the tick grid (the FOK over three levels at least) are kept exactly, as micro-units.
    expect(offGrid).toBeGreaterThan(0);
    w.engine.stop();
  });

  it('reports a value the venue rules reject, naming the field, instead of throwing', () => {
    const w = world();
    ok(w.engine.place(limit(w.m, ALICE, 'NO', 'BUY', 500, 2)));
    ok(w.engine.place(limit(w.m, BOB, 'YES', 'BUY', 500, 2)));
    const settlement = w.frames.map((f) => f.frame).find((f): f is SettlementFrame => f.source === 'SETTLEMENT');
    if (!settlement) throw new Error('no settlement frame');
    const bad: SettlementFrame = { ...settlement, makerMatches: settlement.makerMatches.map((mm) => ({ ...mm, matchedSize: '1.5' })) };
    const converted = orderEventOf(bad);
    expect(converted.ok).toBe(false);
    if (!converted.ok) expect(converted.reason).toMatch(/makerMatches\[0\]\.matchedSize.*"1\.5"/);
    w.engine.stop();
  });
});

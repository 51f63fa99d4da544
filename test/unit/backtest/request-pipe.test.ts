import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestPipe } from '../../../src/backtest/request-pipe.js';

describe('RequestPipe', () => {
  it('spaces starts, acts one way after the start and answers one way later', () => {
    const pipe = new RequestPipe({ oneWayMs: 50, minRequestSpacingMs: 300, maxConcurrent: 2 });
    expect(pipe.send(0)).toEqual({ startMs: 0, landMs: 50, answerMs: 100 });
    expect(pipe.send(0)).toEqual({ startMs: 300, landMs: 350, answerMs: 400 });
    expect(pipe.send(1000)).toEqual({ startMs: 1000, landMs: 1050, answerMs: 1100 });
    expect(pipe.count).toBe(3);
  });

  it('never has more than maxConcurrent in flight', () => {
    const pipe = new RequestPipe({ oneWayMs: 500, minRequestSpacingMs: 0, maxConcurrent: 2 });
    expect(pipe.send(0).startMs).toBe(0);
    expect(pipe.send(0).startMs).toBe(0);
    // Both in flight until 1000: the third waits for the first answer.
    expect(pipe.send(0).startMs).toBe(1000);
    expect(pipe.send(0).startMs).toBe(1000);
    expect(pipe.send(0).startMs).toBe(2000);
  });

  it('with a zero model everything acts at once', () => {
    const pipe = new RequestPipe({ oneWayMs: 0, minRequestSpacingMs: 0, maxConcurrent: 1 });
    for (let i = 0; i < 5; i += 1) expect(pipe.send(7)).toEqual({ startMs: 7, landMs: 7, answerMs: 7 });
  });

  it('holds its invariants for any model and any ready times in order', () => {
    fc.assert(
      fc.property(
        fc.record({ oneWayMs: fc.integer({ min: 0, max: 1000 }), minRequestSpacingMs: fc.integer({ min: 0, max: 1000 }), maxConcurrent: fc.integer({ min: 1, max: 4 }) }),
        fc.array(fc.integer({ min: 0, max: 2000 }), { minLength: 1, maxLength: 60 }),
        (model, gaps) => {
          const pipe = new RequestPipe(model);
          let ready = 0;
          const timings = gaps.map((gap) => {
            ready += gap;
            return { ready, ...pipe.send(ready) };
          });
          timings.forEach((t, i) => {
            expect(t.startMs).toBeGreaterThanOrEqual(t.ready);
            expect(t.landMs - t.startMs).toBe(model.oneWayMs);
            expect(t.answerMs - t.landMs).toBe(model.oneWayMs);
            const previous = timings[i - 1];
            if (previous) expect(t.startMs - previous.startMs).toBeGreaterThanOrEqual(model.minRequestSpacingMs);
            const inFlight = timings.slice(0, i).filter((p) => p.answerMs > t.startMs).length;
            expect(inFlight).toBeLessThan(model.maxConcurrent);
          });
        },
      ),
    );
  });
});

/**
 * The backtest's request model as pure state: spacing, in-flight slots, and the start order of the bot's limiter
 * (cancel > probe > place > read, chosen at the start, FIFO within a class); a withheld request frees its slot at once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestPipe } from '../../../src/backtest/request-pipe.js';
import { PRIORITY_ORDER, priorityRank, type RequestPriority } from '../../../src/core/request-priority.js';

/** Starts everything the pipe allows from `fromMs` on, in time order, until it is empty; returns (item, start) pairs. */
function drain<T>(pipe: RequestPipe<T>, fromMs: number): { item: T; startMs: number }[] {
  const out: { item: T; startMs: number }[] = [];
  for (let at = pipe.nextStartMs(fromMs); at !== null; at = pipe.nextStartMs(at)) {
    const started = pipe.start(at);
    if (started === null) throw new Error(`nothing started at ${at}`);
    out.push({ item: started.item, startMs: started.timing.startMs });
  }
  return out;
}

describe('RequestPipe', () => {
  it('spaces starts, acts one way after the start and answers one way later', () => {
    const pipe = new RequestPipe<string>({ oneWayMs: 50, minRequestSpacingMs: 300, maxConcurrent: 2 });
    pipe.enqueue('place', 'a');
    expect(pipe.start(0)).toEqual({ id: 0, item: 'a', priority: 'place', timing: { startMs: 0, landMs: 50, answerMs: 100 } });
    pipe.enqueue('place', 'b');
    expect(pipe.start(0)).toBeNull();
    expect(pipe.nextStartMs(0)).toBe(300);
    expect(pipe.start(300)?.timing).toEqual({ startMs: 300, landMs: 350, answerMs: 400 });
    expect(pipe.nextStartMs(400)).toBeNull();
    pipe.enqueue('read', 'c');
    expect(pipe.start(1000)?.timing).toEqual({ startMs: 1000, landMs: 1050, answerMs: 1100 });
    expect(pipe.count).toBe(3);
  });

  it('never has more than maxConcurrent in flight', () => {
    const pipe = new RequestPipe<number>({ oneWayMs: 500, minRequestSpacingMs: 0, maxConcurrent: 2 });
    for (let i = 0; i < 5; i += 1) pipe.enqueue('place', i);
    // Both in flight until 1000: the third waits for the first answer.
    expect(drain(pipe, 0).map((s) => s.startMs)).toEqual([0, 0, 1000, 1000, 2000]);
  });

  it('a cancel queued after placements leaves first; a lookup before the placements, a read after them', () => {
    const pipe = new RequestPipe<string>({ oneWayMs: 50, minRequestSpacingMs: 320, maxConcurrent: 2 });
    pipe.enqueue('place', 'p1');
    expect(pipe.start(0)?.item).toBe('p1');
    pipe.enqueue('read', 'r1');
    pipe.enqueue('place', 'p2');
    pipe.enqueue('place', 'p3');
    pipe.enqueue('probe', 'lookup');
    pipe.enqueue('cancel', 'c1');
    expect(drain(pipe, 10)).toEqual([
      { item: 'c1', startMs: 320 },
      { item: 'lookup', startMs: 640 },
      { item: 'p2', startMs: 960 },
      { item: 'p3', startMs: 1280 },
      { item: 'r1', startMs: 1600 },
    ]);
  });

  it('chooses at the start: a cancel queued while the others wait for the spacing goes before them', () => {
    const pipe = new RequestPipe<string>({ oneWayMs: 50, minRequestSpacingMs: 320, maxConcurrent: 2 });
    pipe.enqueue('place', 'p1');
    pipe.enqueue('place', 'p2');
    expect(pipe.start(0)?.item).toBe('p1');
    pipe.enqueue('cancel', 'late cancel');
    expect(pipe.start(320)?.item).toBe('late cancel');
    expect(pipe.start(640)?.item).toBe('p2');
  });

  it('ties keep their queue order (FIFO within a class)', () => {
    const pipe = new RequestPipe<string>({ oneWayMs: 0, minRequestSpacingMs: 100, maxConcurrent: 1 });
    for (const item of ['c1', 'p1', 'c2', 'p2', 'c3']) pipe.enqueue(item.startsWith('c') ? 'cancel' : 'place', item);
    expect(drain(pipe, 0).map((s) => s.item)).toEqual(['c1', 'c2', 'c3', 'p1', 'p2']);
  });

  it('a withheld request frees its slot at once and is counted apart', () => {
    const pipe = new RequestPipe<string>({ oneWayMs: 500, minRequestSpacingMs: 100, maxConcurrent: 1 });
    pipe.enqueue('place', 'withheld');
    pipe.enqueue('place', 'next');
    const first = pipe.start(0);
    if (first === null) throw new Error('nothing started');
    // In flight, the next would wait for its answer at 1000; withheld at its start (nothing sent), the next goes now.
    expect(pipe.nextStartMs(0)).toBe(1000);
    pipe.withhold(first.id, 0);
    expect(pipe.nextStartMs(0)).toBe(0);
    expect(pipe.start(0)?.item).toBe('next');
    expect([pipe.count, pipe.withheld]).toEqual([1, 1]);
  });

  it('a withheld request sent nothing: the next start is spaced from the last request that acted, as the bot’s limiter does', () => {
    const pipe = new RequestPipe<string>({ oneWayMs: 500, minRequestSpacingMs: 100, maxConcurrent: 2 });
    for (const item of ['acted', 'withheld', 'next']) pipe.enqueue('place', item);
    expect(pipe.start(0)?.item).toBe('acted');
    const withheld = pipe.start(100);
    if (withheld === null) throw new Error('nothing started');
    expect(pipe.nextStartMs(100)).toBe(1000); // two in flight
    pipe.withhold(withheld.id, 100);
    // Not 200: the withheld one did not reach the venue, and the one that acted started 100 ms ago.
    expect(pipe.nextStartMs(100)).toBe(100);
    expect(pipe.start(100)?.item).toBe('next');
    expect([pipe.count, pipe.withheld]).toEqual([2, 1]);
  });

  it('holds its invariants for any model and any arrivals: spacing, slots, the most urgent first, FIFO within a class', () => {
    const arrival = fc.record({ gapMs: fc.integer({ min: 0, max: 700 }), priority: fc.constantFrom<RequestPriority>(...PRIORITY_ORDER) });
    fc.assert(
      fc.property(
        fc.record({ oneWayMs: fc.integer({ min: 0, max: 500 }), minRequestSpacingMs: fc.integer({ min: 0, max: 500 }), maxConcurrent: fc.integer({ min: 1, max: 4 }) }),
        fc.array(arrival, { minLength: 1, maxLength: 40 }),
        (model, arrivals) => {
          const pipe = new RequestPipe<number>(model);
          const queuedAt: number[] = [];
          let arriveMs = 0;
          const arrivalsAt = arrivals.map((a) => {
            arriveMs += a.gapMs;
            return { ...a, atMs: arriveMs };
          });
          const starts: { index: number; startMs: number; answerMs: number }[] = [];
          let next = 0;
          let nowMs = 0;
          // Event loop: the next arrival or the next start the pipe allows, whichever comes first (arrivals first on a tie).
          while (next < arrivalsAt.length || pipe.queued > 0) {
            const arrivalMs = arrivalsAt[next]?.atMs ?? Number.POSITIVE_INFINITY;
            const startMs = pipe.nextStartMs(nowMs) ?? Number.POSITIVE_INFINITY;
            if (arrivalMs <= startMs) {
              nowMs = arrivalMs;
              const a = arrivalsAt[next];
              if (a === undefined) break;
              pipe.enqueue(a.priority, next);
              queuedAt.push(nowMs);
              next += 1;
              continue;
            }
            nowMs = startMs;
            const started = pipe.start(nowMs);
            if (started === null) throw new Error('nextStartMs promised a start');
            // Nothing more urgent waits, and nothing of its own class queued earlier.
            const waiting = queuedAt.flatMap((_, i) => (i < next && !starts.some((s) => s.index === i) && i !== started.item ? [i] : []));
            for (const i of waiting) {
              const p = arrivalsAt[i]?.priority ?? 'read';
              expect(priorityRank(p)).toBeGreaterThanOrEqual(priorityRank(started.priority));
              if (p === started.priority) expect(i).toBeGreaterThan(started.item);
            }
            starts.push({ index: started.item, startMs: started.timing.startMs, answerMs: started.timing.answerMs });
          }
          expect(starts).toHaveLength(arrivals.length);
          starts.forEach((s, k) => {
            expect(s.startMs).toBeGreaterThanOrEqual(queuedAt[s.index] ?? 0);
            const previous = starts[k - 1];
            if (previous) expect(s.startMs - previous.startMs).toBeGreaterThanOrEqual(model.minRequestSpacingMs);
            const inFlight = starts.slice(0, k).filter((p) => p.answerMs > s.startMs).length;
            expect(inFlight).toBeLessThan(model.maxConcurrent);
          });
        },
      ),
    );
  });
});

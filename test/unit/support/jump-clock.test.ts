/**
 * The test clock that bot-halts moves forward once the bot quotes (test/support/jump-clock.ts): a jump runs what fell
 * due meanwhile, at once and in due order, leaves the rest for their due time, and never runs a cancelled timer.
 */
import { describe, expect, it } from 'vitest';
import { JumpClock } from '../../support/jump-clock.js';

/** Lets the immediates the clock queued for due timers run. */
const immediates = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('JumpClock', () => {
  it('runs what falls due at a jump in due order, keeps the rest, never runs a cancelled timer', async () => {
    const clock = new JumpClock();
    const start = clock.now();
    const ran: string[] = [];
    clock.schedule(60_000, () => ran.push('60 s'));
    clock.schedule(30_000, () => ran.push('30 s'));
    const cancel = clock.schedule(20_000, () => ran.push('cancelled'));
    clock.schedule(120_000, () => ran.push('120 s'));
    cancel();
    clock.jump(90_000);
    expect(clock.offsetMs).toBe(90_000);
    expect(clock.now() - start).toBeGreaterThanOrEqual(90_000);
    await immediates();
    expect(ran).toEqual(['30 s', '60 s']);
    clock.jump(30_000);
    await immediates();
    expect(ran).toEqual(['30 s', '60 s', '120 s']);
  });

  it('refuses to go back', () => {
    expect(() => new JumpClock().jump(-1)).toThrow(RangeError);
  });
});

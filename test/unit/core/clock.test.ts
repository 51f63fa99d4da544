import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ListenerSet } from '../../../src/book/listeners.js';
import { ManualClock, systemScheduler } from '../../../src/core/clock.js';

describe('ManualClock', () => {
  it('runs timers in due order as the clock advances, never early', () => {
    const s = new ManualClock(100);
    const ran: Array<[string, number]> = [];
    s.schedule(50, () => ran.push(['b', s.now()]));
    s.schedule(10, () => ran.push(['a', s.now()]));
    s.schedule(10, () => ran.push(['a2', s.now()]));
    s.advance(9);
    expect(ran).toEqual([]);
    s.advance(41);
    expect(ran).toEqual([['a', 110], ['a2', 110], ['b', 150]]);
    expect(s.now()).toBe(150);
  });

  it('runs timers scheduled by timers when they fall due, and honours cancellation', () => {
    const s = new ManualClock(0);
    const ran: number[] = [];
    s.schedule(10, () => {
      ran.push(s.now());
      s.schedule(5, () => ran.push(s.now()));
    });
    const cancel = s.schedule(12, () => ran.push(-1));
    cancel();
    s.advance(100);
    expect(ran).toEqual([10, 15]);
    expect(s.pending()).toBe(0);
  });
});

describe('systemScheduler', () => {
  it('runs and cancels real timers', async () => {
    const ran: string[] = [];
    const cancel = systemScheduler.schedule(1, () => ran.push('cancelled'));
    cancel();
    await new Promise<void>((resolve) => systemScheduler.schedule(0, () => resolve()));
    await new Promise<void>((resolve) => systemScheduler.schedule(5, () => resolve()));
    expect(ran).toEqual([]);
    expect(Math.abs(systemScheduler.now() - Date.now())).toBeLessThan(50);
  });

  it('runs a zero-delay callback in the same loop turn, not when an unrelated timer next wakes the loop', () => {
    // In a fresh plain-node process (no loader thread waking the loop) with nothing else pending: an unref'd
    // immediate would wait for the unrelated timer. The module has no imports, so it is transpiled as is.
    const dir = mkdtempSync(join(tmpdir(), 'om-scheduler-'));
    try {
      const source = readFileSync(new URL('../../../src/core/clock.ts', import.meta.url), 'utf8');
      const compiled = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
      writeFileSync(join(dir, 'scheduler.mjs'), compiled.outputText);
      // Scheduled from a timer callback; the unrelated timer is 5 s away. A ref'd immediate runs at once; an unref'd
      // one sleeps through the poll phase until that timer wakes the loop (≈ 5,000 ms).
      const script = [
        "import { systemScheduler } from './scheduler.mjs';",
        'setTimeout(() => {',
        '  const scheduledAt = Date.now();',
        '  const unrelated = setTimeout(() => {}, 5000);',
        '  systemScheduler.schedule(0, () => { clearTimeout(unrelated); console.log(Date.now() - scheduledAt); });',
        '}, 10);',
      ].join('\n');
      writeFileSync(join(dir, 'probe.mjs'), script);
      const out = execFileSync(process.execPath, [join(dir, 'probe.mjs')], { encoding: 'utf8' });
      expect(Number(out.trim())).toBeLessThan(2500);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ListenerSet', () => {
  it('keeps delivering when a listener throws and reports the error', () => {
    const errors: unknown[] = [];
    const set = new ListenerSet<[number]>((e) => errors.push(e));
    const got: number[] = [];
    set.add(() => {
      throw new Error('boom');
    });
    const off = set.add((n) => got.push(n));
    set.emit(1);
    off();
    set.emit(2);
    expect(got).toEqual([1]);
    expect(errors).toHaveLength(2);
  });
});

describe('ManualClock.nextDueMs', () => {
  it('names the next pending timer, skipping cancelled ones, and null when none is left', () => {
    const clock = new ManualClock(1000);
    expect(clock.nextDueMs()).toBeNull();
    const cancelFirst = clock.schedule(10, () => undefined);
    clock.schedule(30, () => undefined);
    expect(clock.nextDueMs()).toBe(1010);
    cancelFirst();
    expect(clock.nextDueMs()).toBe(1030);
    clock.advance(30);
    expect(clock.nextDueMs()).toBeNull();
  });
});

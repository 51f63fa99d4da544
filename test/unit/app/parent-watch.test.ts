/**
 * The parent watch on injected parent PIDs and a manual timer: on only under an npm script (or when forced), never
 * with init as the parent, fires once when the parent changes, and stops polling then.
 */
import { describe, expect, it } from 'vitest';
import { PARENT_POLL_MS, parentWatchWanted, watchParent } from '../../../src/app/parent-watch.js';

describe('parentWatchWanted', () => {
  it('under an npm script, or when OM_STOP_WITH_PARENT=1; never when OM_STOP_WITH_PARENT=0 or the parent is init', () => {
    expect(parentWatchWanted({ npm_lifecycle_event: 'start' }, 4242)).toBe(true);
    expect(parentWatchWanted({}, 4242)).toBe(false);
    expect(parentWatchWanted({ OM_STOP_WITH_PARENT: '1' }, 4242)).toBe(true);
    expect(parentWatchWanted({ npm_lifecycle_event: 'start', OM_STOP_WITH_PARENT: '0' }, 4242)).toBe(false);
    expect(parentWatchWanted({ npm_lifecycle_event: 'start' }, 1)).toBe(false);
    expect(parentWatchWanted({ OM_STOP_WITH_PARENT: '1' }, 0)).toBe(false);
  });
});

describe('watchParent', () => {
  function rig(env: Record<string, string>, ppids: number[]) {
    let tick: (() => void) | null = null;
    let intervalMs: number | null = null;
    let canceled = 0;
    const orphaned: [number, number][] = [];
    let index = 0;
    const stop = watchParent({
      env,
      ppid: () => ppids[Math.min(index, ppids.length - 1)]!,
      every: (ms, run) => {
        intervalMs = ms;
        tick = run;
        return () => {
          canceled += 1;
          tick = null;
        };
      },
      onOrphaned: (was, now) => orphaned.push([was, now]),
    });
    return {
      stop,
      step: () => {
        index += 1;
        tick?.();
      },
      get polling() {
        return tick !== null;
      },
      get intervalMs() {
        return intervalMs;
      },
      get canceled() {
        return canceled;
      },
      orphaned,
    };
  }

  it('fires once when the parent changes, then stops polling', () => {
    const watch = rig({ npm_lifecycle_event: 'start' }, [500, 500, 1, 1]);
    expect(watch.intervalMs).toBe(PARENT_POLL_MS);
    watch.step();
    expect(watch.orphaned).toEqual([]);
    watch.step();
    expect(watch.orphaned).toEqual([[500, 1]]);
    expect(watch.polling).toBe(false);
    watch.step();
    expect(watch.orphaned).toHaveLength(1);
  });

  it('does not poll when not wanted; its stop is a no-op', () => {
    const watch = rig({}, [500, 1]);
    expect(watch.polling).toBe(false);
    watch.stop();
    expect(watch.canceled).toBe(0);
  });

  it('stop() ends the polling', () => {
    const watch = rig({ OM_STOP_WITH_PARENT: '1' }, [500, 500]);
    watch.stop();
    expect(watch.canceled).toBe(1);
    expect(watch.polling).toBe(false);
  });
});

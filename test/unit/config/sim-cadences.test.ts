/**
 * The simulator venue's `venue.underlying.cadences`: 15-minute and weekly ladders beside hourly and daily (the
 * simulator's crypto world lists all four); anything else is refused naming the path and the value.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfigText } from '../../../src/config/index.js';

const parse = (cadences: string) =>
  parseConfigText(`venue: { kind: sim, world: crypto, underlying: { cadences: ${cadences} } }\nstrategy: { name: fixed-spread }\n`, { source: '<test>', baseDir: '/srv/bot' });

describe('venue.underlying.cadences', () => {
  it('takes 15m, hourly, daily and weekly', () => {
    const c = parse('[15m, hourly, daily, weekly]');
    if (c.venue.kind !== 'sim') throw new Error('not a sim venue');
    expect(c.venue.underlying.cadences).toEqual(['15m', 'hourly', 'daily', 'weekly']);
  });

  it('refuses another cadence naming the path', () => {
    let paths: string[] = [];
    try {
      parse('[hourly, monthly]');
    } catch (error) {
      if (error instanceof ConfigError) paths = error.issues.map((i) => `${i.path}=${String(i.value)}`);
    }
    expect(paths).toEqual(['venue.underlying.cadences[1]="monthly"']);
  });
});

/** `venue.units`: the socket feed's size units and the history's amounts, `auto` by default, validated like every other field. */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfigText, type AppConfig } from '../../../src/config/index.js';

const BASE = { source: '<test>', baseDir: '/srv/bot' };

function parse(venue: string): AppConfig {
  return parseConfigText(`version: 1\nstrategy:\n  name: fixed-spread\nvenue:\n  kind: sim\n${venue}`, BASE);
}

describe('venue.units', () => {
  it('defaults to auto for every unit', () => {
    expect(parse('').venue.units).toEqual({ socketBookSize: 'auto', socketAmounts: 'auto', historyAmounts: 'auto' });
  });

  it('takes raw or shares (socket), raw or decimal (history)', () => {
    expect(parse('  units:\n    socketBookSize: raw\n    socketAmounts: shares\n    historyAmounts: decimal\n').venue.units).toEqual({ socketBookSize: 'raw', socketAmounts: 'shares', historyAmounts: 'decimal' });
  });

  it('rejects another value and an unknown key, naming the path', () => {
    let caught: unknown = null;
    try {
      parse('  units:\n    socketBookSize: bytes\n    sizes: raw\n');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const issues = caught instanceof ConfigError ? caught.issues : [];
    expect(issues.map((issue) => issue.path)).toEqual(expect.arrayContaining(['venue.units.socketBookSize']));
    expect(caught instanceof ConfigError ? caught.message : '').toMatch(/socketBookSize/);
    expect(caught instanceof ConfigError ? caught.message : '').toMatch(/sizes/);
  });
});

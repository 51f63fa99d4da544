/** `outcome-maker status`'s text (src/operator/status-command.ts): the status line, then each unquoted market and why. */
import { describe, expect, it } from 'vitest';
import { formatStatus, parseStatusAnswer } from '../../../src/operator/status-command.js';

describe('status command text', () => {
  it('prints the status line, then one line per unquoted market with its reason, sorted', () => {
    const answer = parseStatusAnswer({ message: 'status: 1/3 markets quoted, 2 open orders', fields: { markets: 3, unquoted: { 'eth-b': 'no book yet', 'btc-a': 'pricing halted: near-settlement' } } });
    expect(answer).not.toBeNull();
    expect(formatStatus(answer!)).toBe('1/3 markets quoted, 2 open orders\nnot quoted (2):\n  btc-a: pricing halted: near-settlement\n  eth-b: no book yet\n');
  });

  it('says when every market is quoted, and refuses an answer of another shape', () => {
    expect(formatStatus(parseStatusAnswer({ message: 'status: 2/2 markets quoted', fields: {} })!)).toBe('2/2 markets quoted\nevery traded market has an order of the bot\n');
    expect(parseStatusAnswer({ error: 'starting' })).toBeNull();
    expect(parseStatusAnswer({ message: 'x', fields: { unquoted: { a: 3 } } })).toBeNull();
  });
});

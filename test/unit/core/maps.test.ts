import { describe, expect, it } from 'vitest';
import { getOrInsert } from '../../../src/core/maps.js';

describe('getOrInsert', () => {
  it('creates and stores a value once, then returns the stored one', () => {
    const map = new Map<string, number[]>();
    let created = 0;
    const make = (): number[] => {
      created += 1;
      return [];
    };
    getOrInsert(map, 'a', make).push(1);
    getOrInsert(map, 'a', make).push(2);
    expect(map.get('a')).toEqual([1, 2]);
    expect(created).toBe(1);
  });

  it('keeps a stored falsy value (0, empty string) rather than replacing it', () => {
    const map = new Map<string, number>([['zero', 0]]);
    expect(getOrInsert(map, 'zero', () => 7)).toBe(0);
    expect(getOrInsert(map, 'new', () => 7)).toBe(7);
  });
});

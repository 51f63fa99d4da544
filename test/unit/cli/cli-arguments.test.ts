/** The command line's argument parsers (src/cli-arguments.ts): known values and the errors commander prints. */
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { collect, parsePositiveSeconds, parseWholeNumber, portArgument } from '../../../src/cli-arguments.js';

describe('cli arguments', () => {
  it('collect appends each repeated value in order', () => {
    expect(collect('b', collect('a', []))).toEqual(['a', 'b']);
  });

  it('parsePositiveSeconds takes a positive number and refuses blank, zero, negative and non-numbers', () => {
    expect(parsePositiveSeconds('30')).toBe(30);
    expect(parsePositiveSeconds('0.5')).toBe(0.5);
    for (const bad of ['', ' ', '0', '-1', 'ten', 'Infinity']) {
      expect(() => parsePositiveSeconds(bad)).toThrow(new InvalidArgumentError('expected a positive number of seconds'));
    }
  });

  it('parseWholeNumber takes digits only, within the safe integers', () => {
    expect(parseWholeNumber('0')).toBe(0);
    expect(parseWholeNumber(' 42 ')).toBe(42);
    for (const bad of ['', '1.5', '-3', '1e3', '9007199254740993']) {
      expect(() => parseWholeNumber(bad)).toThrow(new InvalidArgumentError('expected a whole number'));
    }
  });

  it('portArgument takes 0 to 65535', () => {
    expect(portArgument('0')).toBe(0);
    expect(portArgument('9464')).toBe(9464);
    for (const bad of ['65536', '-1', 'http']) {
      expect(() => portArgument(bad)).toThrow(new InvalidArgumentError('expected a port number, 0 to 65535'));
    }
  });
});

/**
 * The command line's argument parsers (commander's `argParser`s): each turns one option's text into its value or
 * throws commander's InvalidArgumentError, which commander prints with the option's name and exits with usage (2).
 * Pure; no I/O.
 */
import { InvalidArgumentError } from 'commander';
import { parsePort } from './operator/metrics-port.js';

/** commander's accumulator for a repeatable option. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function parsePositiveSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) throw new InvalidArgumentError('expected a positive number of seconds');
  return seconds;
}

/** commander's parser of `--metrics-port`. */
export function portArgument(value: string): number {
  try {
    return parsePort(value);
  } catch {
    throw new InvalidArgumentError('expected a port number, 0 to 65535');
  }
}

export function parseWholeNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('expected a whole number');
  return n;
}

/**
 * clientOrderId: `<botTag>-<marketKey>-<slot>-<sequence>` (DESIGN.md §3).
 *
 * Owns: building, parsing and sequencing the ids by which the bot recognises its own orders after a
 * restart and makes a retried placement idempotent (a duplicate id answers 409 = already accepted).
 *
 * Format (at most 58 characters, far under the venue's 128):
 * - botTag: [a-z0-9], 1–12 characters (no hyphen, so it is always the first field); `BOT_TAG_PATTERN` is the one
 *   definition, the config schema validates with it;
 * - marketKey: the first 8 hex digits of sha256(market slug). Always hashed, never the slug itself: slugs
 *   contain hyphens and can be long, a fixed-width key keeps parsing unambiguous and the id short. It is
 *   only used to check that an order listed under a market was placed for that market;
 * - slot: [a-z0-9-], 1–24 characters (the strategy's stable slot name; may contain hyphens);
 * - sequence: base-36 of a safe integer, canonical (no leading zeros), always the last field.
 *
 * Sequence guarantee: `SequenceSource.next()` returns max(previous + 1, clock ms × 1000), so it is strictly
 * increasing within a process and, across restarts, as long as the wall clock has not stepped back by more
 * than the gap between the restarts (the venue rate limit keeps a run far below 1,000 orders per ms, so the
 * counter never runs ahead of the clock). Seeding it with the largest sequence seen on the venue at start-up
 * (`observe`) or kept by the ledger (`floor`) makes it strict regardless of the clock.
 */
import { createHash } from 'node:crypto';
import { describeValue } from '../core/venue-rules/index.js';
import { getOrInsert } from '../core/maps.js';

export const MAX_CLIENT_ORDER_ID_LENGTH = 128;
/** Sequence numbers per millisecond of wall clock: the seed is clock ms × this. */
export const SEQUENCE_PER_MS = 1000;

/** Longest bot tag. */
export const MAX_BOT_TAG_LENGTH = 12;
/** A bot tag: 1–MAX_BOT_TAG_LENGTH characters of [a-z0-9]. */
export const BOT_TAG_PATTERN = new RegExp(`^[a-z0-9]{1,${MAX_BOT_TAG_LENGTH}}$`);
export const BOT_TAG_RULE = `1–${MAX_BOT_TAG_LENGTH} lower-case letters or digits`;
const MARKET_KEY = /^[0-9a-f]{8}$/;
const SLOT = /^[a-z0-9-]{1,24}$/;
const SEQUENCE = /^(?:0|[1-9a-z][0-9a-z]{0,10})$/;

export class ClientOrderIdError extends Error {
  override readonly name = 'ClientOrderIdError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${describeValue(value)})`);
  }
}

export interface ClientOrderIdParts {
  readonly botTag: string;
  readonly marketKey: string;
  readonly slot: string;
  readonly sequence: number;
}

/** The 8-hex-digit key of a market slug. */
export function marketKey(marketSlug: string): string {
  if (marketSlug.length === 0) throw new ClientOrderIdError('marketSlug', marketSlug, 'empty');
  return createHash('sha256').update(marketSlug, 'utf8').digest('hex').slice(0, 8);
}

export function assertBotTag(botTag: string): void {
  if (!BOT_TAG_PATTERN.test(botTag)) throw new ClientOrderIdError('botTag', botTag, `must be ${BOT_TAG_RULE}`);
}

export function isValidSlot(slot: string): boolean {
  return SLOT.test(slot);
}

export function assertSlot(slot: string): void {
  if (!isValidSlot(slot)) throw new ClientOrderIdError('slot', slot, 'must be 1–24 characters of [a-z0-9-]');
}

export function formatClientOrderId(parts: ClientOrderIdParts): string {
  assertBotTag(parts.botTag);
  if (!MARKET_KEY.test(parts.marketKey)) {
    throw new ClientOrderIdError('marketKey', parts.marketKey, 'must be 8 lower-case hex digits');
  }
  assertSlot(parts.slot);
  if (!Number.isSafeInteger(parts.sequence) || parts.sequence < 0) {
    throw new ClientOrderIdError('sequence', parts.sequence, 'must be a non-negative safe integer');
  }
  return `${parts.botTag}-${parts.marketKey}-${parts.slot}-${parts.sequence.toString(36)}`;
}

/** Parses an id back into its parts. Throws `ClientOrderIdError` for anything this format did not make. */
export function parseClientOrderId(id: string): ClientOrderIdParts {
  if (id.length > MAX_CLIENT_ORDER_ID_LENGTH) throw new ClientOrderIdError('clientOrderId', id, 'longer than 128 characters');
  const fields = id.split('-');
  if (fields.length < 4) throw new ClientOrderIdError('clientOrderId', id, 'not <botTag>-<marketKey>-<slot>-<sequence>');
  const botTag = fields[0] ?? '';
  const key = fields[1] ?? '';
  const sequenceText = fields[fields.length - 1] ?? '';
  const slot = fields.slice(2, -1).join('-');
  if (!BOT_TAG_PATTERN.test(botTag)) throw new ClientOrderIdError('clientOrderId', id, `bot tag is not ${BOT_TAG_RULE}`);
  if (!MARKET_KEY.test(key)) throw new ClientOrderIdError('clientOrderId', id, 'market key is not 8 hex digits');
  if (!SLOT.test(slot)) throw new ClientOrderIdError('clientOrderId', id, 'slot is not [a-z0-9-]{1,24}');
  if (!SEQUENCE.test(sequenceText)) throw new ClientOrderIdError('clientOrderId', id, 'sequence is not canonical base-36');
  const sequence = parseInt(sequenceText, 36);
  if (!Number.isSafeInteger(sequence)) throw new ClientOrderIdError('clientOrderId', id, 'sequence too large');
  return { botTag, marketKey: key, slot, sequence };
}

/** Parses without throwing: null for an id that is not of this format. */
export function tryParseClientOrderId(id: string): ClientOrderIdParts | null {
  try {
    return parseClientOrderId(id);
  } catch (error) {
    if (error instanceof ClientOrderIdError) return null;
    throw error;
  }
}

/** True when `id` was made by this format with `botTag`. */
export function isOwnClientOrderId(id: string | null | undefined, botTag: string): boolean {
  if (id === null || id === undefined) return false;
  return tryParseClientOrderId(id)?.botTag === botTag;
}

/** Strictly increasing sequence numbers (see the header for the cross-restart guarantee). */
export class SequenceSource {
  private last: number;

  constructor(
    private readonly nowMs: () => number,
    floor = -1,
  ) {
    if (!Number.isSafeInteger(floor)) throw new ClientOrderIdError('floor', floor, 'must be a safe integer');
    this.last = floor;
  }

  next(): number {
    const fromClock = Math.floor(this.nowMs()) * SEQUENCE_PER_MS;
    const candidate = Math.max(this.last + 1, Number.isSafeInteger(fromClock) ? fromClock : 0);
    if (!Number.isSafeInteger(candidate)) throw new ClientOrderIdError('sequence', candidate, 'exhausted');
    this.last = candidate;
    return candidate;
  }

  /** Raises the floor so every later `next()` is above `sequence` (a sequence seen on the venue or in the ledger). */
  observe(sequence: number): void {
    if (Number.isSafeInteger(sequence) && sequence > this.last) this.last = sequence;
  }

  get lastIssued(): number {
    return this.last;
  }
}

/** Makes the ids of one bot: `next(marketSlug, slot)`. */
export class ClientOrderIdFactory {
  private readonly sequences: SequenceSource;
  private readonly keys = new Map<string, string>();

  constructor(
    readonly botTag: string,
    nowMs: () => number,
    floor = -1,
  ) {
    assertBotTag(botTag);
    this.sequences = new SequenceSource(nowMs, floor);
  }

  keyOf(marketSlug: string): string {
    return getOrInsert(this.keys, marketSlug, () => marketKey(marketSlug));
  }

  /** Forgets the cached key of a market that was dropped (it is computed again should the market come back). */
  forget(marketSlug: string): void {
    this.keys.delete(marketSlug);
  }

  /** How many market keys are cached. */
  get cachedKeys(): number {
    return this.keys.size;
  }

  next(marketSlug: string, slot: string): string {
    assertSlot(slot);
    return formatClientOrderId({ botTag: this.botTag, marketKey: this.keyOf(marketSlug), slot, sequence: this.sequences.next() });
  }

  /** Raises the sequence floor above an id seen elsewhere (ignored if it is not one of ours). */
  observe(clientOrderId: string): void {
    const parts = tryParseClientOrderId(clientOrderId);
    if (parts !== null && parts.botTag === this.botTag) this.sequences.observe(parts.sequence);
  }

  get lastSequence(): number {
    return this.sequences.lastIssued;
  }
}

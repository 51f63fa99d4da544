/**
 * Validates what a strategy returned (built-in or user-written) before it can reach the order manager.
 *
 * Never throws: every problem becomes a rejection naming the field, the value and the reason, so the
 * runner can count and drop it. Returned intents are fresh objects with only the contract's fields.
 *
 * An intent is valid when: it is an object with no unknown fields; `slot` matches SLOT_PATTERN and is
 * unique in the set; `token` is YES|NO; `side` is BUY|SELL; `priceTicks` is an integer inside the venue's
 * (0, 1) and the market's band; `sizeRaw` is a safe integer > 0 on the 1,000-raw step; `postOnly` is
 * absent or boolean. The set must not trade with itself: a bid at or above one of its own asks
 * (YES terms, a BUY NO at q being an ask at 1 − q) is rejected together with the asks it crosses.
 */
import { describeValue, MAX_TICK, MIN_TICK, SIZE_STEP_RAW } from '../core/venue-rules/index.js';
import type { Outcome, Side } from '../core/venue-rules/index.js';
import type { MarketInfo, QuoteIntent } from './contract.js';
import { effectiveBand } from './rounding.js';
import { toYesTerms } from './yes-terms.js';

export const SLOT_PATTERN = /^[a-z0-9][a-z0-9-]{0,23}$/;
export const DEFAULT_MAX_INTENTS = 50;

const KNOWN_FIELDS = new Set(['slot', 'token', 'side', 'priceTicks', 'sizeRaw', 'postOnly']);

export interface IntentRejection {
  /** The intent as the strategy returned it. */
  readonly intent: unknown;
  readonly field: string;
  readonly value: unknown;
  readonly reason: string;
}

export interface IntentValidation {
  readonly valid: QuoteIntent[];
  readonly rejected: IntentRejection[];
}

export interface ValidateOptions {
  /** More intents than this is treated as a runaway strategy: all are rejected (default 50). */
  readonly maxIntents?: number;
}

/** A one-line description of a rejection, for logs. */
export function describeRejection(rejection: IntentRejection): string {
  return `${rejection.field}: ${rejection.reason} (got ${describeValue(rejection.value)})`;
}

export function validateIntents(intents: unknown, market: MarketInfo, options: ValidateOptions = {}): IntentValidation {
  if (!Array.isArray(intents)) {
    return { valid: [], rejected: [{ intent: intents, field: 'intents', value: intents, reason: 'not an array' }] };
  }
  const items: readonly unknown[] = intents;
  const maxIntents = options.maxIntents ?? DEFAULT_MAX_INTENTS;
  if (items.length > maxIntents) {
    const reason = `more than ${maxIntents} intents; the whole set is dropped`;
    return { valid: [], rejected: items.map((intent) => ({ intent, field: 'intents', value: items.length, reason })) };
  }

  const band = effectiveBand(market);
  const rejected: IntentRejection[] = [];
  const checked: { readonly raw: unknown; readonly intent: QuoteIntent }[] = [];
  const slotCounts = new Map<string, number>();
  for (const raw of items) {
    const slot = safeRead(raw, 'slot');
    if (typeof slot === 'string') slotCounts.set(slot, (slotCounts.get(slot) ?? 0) + 1);
    const result = checkOne(raw, band);
    if ('reason' in result) rejected.push(result);
    else checked.push({ raw, intent: result });
  }

  const unique = checked.filter(({ raw, intent }) => {
    if ((slotCounts.get(intent.slot) ?? 0) <= 1) return true;
    rejected.push({ intent: raw, field: 'slot', value: intent.slot, reason: 'duplicate slot in this quote' });
    return false;
  });

  return { valid: dropSelfCrossing(unique, rejected), rejected };
}

function checkOne(raw: unknown, band: { minTicks: number; maxTicks: number } | null): QuoteIntent | IntentRejection {
  const reject = (field: string, value: unknown, reason: string): IntentRejection => ({ intent: raw, field, value, reason });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return reject('intent', raw, 'not an object');
  let keys: string[];
  try {
    keys = Object.keys(raw);
  } catch {
    return reject('intent', raw, 'unreadable object');
  }
  const unknownKey = keys.find((key) => !KNOWN_FIELDS.has(key));
  if (unknownKey !== undefined) return reject(unknownKey, safeRead(raw, unknownKey), 'unknown field');

  const slot = safeRead(raw, 'slot');
  if (typeof slot !== 'string' || !SLOT_PATTERN.test(slot)) {
    return reject('slot', slot, 'must match /^[a-z0-9][a-z0-9-]{0,23}$/');
  }
  const token = safeRead(raw, 'token');
  if (!isOutcome(token)) return reject('token', token, 'must be YES or NO');
  const side = safeRead(raw, 'side');
  if (!isSide(side)) return reject('side', side, 'must be BUY or SELL');

  const priceTicks = safeRead(raw, 'priceTicks');
  if (typeof priceTicks !== 'number' || !Number.isFinite(priceTicks)) return reject('priceTicks', priceTicks, 'not a finite number');
  if (!Number.isInteger(priceTicks)) return reject('priceTicks', priceTicks, 'not an integer tick');
  if (priceTicks < MIN_TICK || priceTicks > MAX_TICK) return reject('priceTicks', priceTicks, `outside (0, 1): must be in [${MIN_TICK}, ${MAX_TICK}]`);
  if (band === null) return reject('priceTicks', priceTicks, 'the market has no valid price band');
  if (priceTicks < band.minTicks || priceTicks > band.maxTicks) {
    return reject('priceTicks', priceTicks, `outside the market band [${band.minTicks}, ${band.maxTicks}]`);
  }

  const sizeRaw = safeRead(raw, 'sizeRaw');
  if (typeof sizeRaw !== 'number' || !Number.isFinite(sizeRaw)) return reject('sizeRaw', sizeRaw, 'not a finite number');
  if (!Number.isSafeInteger(sizeRaw)) return reject('sizeRaw', sizeRaw, 'not a safe integer');
  if (sizeRaw <= 0) return reject('sizeRaw', sizeRaw, 'must be > 0');
  if (sizeRaw % SIZE_STEP_RAW !== 0) return reject('sizeRaw', sizeRaw, `not a multiple of the ${SIZE_STEP_RAW}-raw step`);

  const postOnly = safeRead(raw, 'postOnly');
  if (postOnly !== undefined && typeof postOnly !== 'boolean') return reject('postOnly', postOnly, 'must be a boolean when present');

  const intent: QuoteIntent = { slot, token, side, priceTicks, sizeRaw };
  return postOnly === undefined ? intent : { ...intent, postOnly };
}

/** Rejects every bid at or above the lowest ask and every ask at or below the highest bid (YES terms). */
function dropSelfCrossing(
  items: readonly { readonly raw: unknown; readonly intent: QuoteIntent }[],
  rejected: IntentRejection[],
): QuoteIntent[] {
  const yes = items.map((item) => ({ ...item, yes: toYesTerms(item.intent.token, item.intent.side, item.intent.priceTicks) }));
  let maxBid = Number.NEGATIVE_INFINITY;
  let minAsk = Number.POSITIVE_INFINITY;
  for (const { yes: q } of yes) {
    if (q.side === 'bid') maxBid = Math.max(maxBid, q.priceTicks);
    else minAsk = Math.min(minAsk, q.priceTicks);
  }
  if (maxBid < minAsk) return items.map((item) => item.intent);
  const valid: QuoteIntent[] = [];
  for (const { raw, intent, yes: q } of yes) {
    const crosses = q.side === 'bid' ? q.priceTicks >= minAsk : q.priceTicks <= maxBid;
    if (!crosses) {
      valid.push(intent);
      continue;
    }
    const other = q.side === 'bid' ? `its own ask at YES ${minAsk}` : `its own bid at YES ${maxBid}`;
    rejected.push({ intent: raw, field: 'priceTicks', value: intent.priceTicks, reason: `crosses ${other} (YES-terms ${q.side} at ${q.priceTicks}): would trade with itself` });
  }
  return valid;
}

function isOutcome(value: unknown): value is Outcome {
  return value === 'YES' || value === 'NO';
}

function isSide(value: unknown): value is Side {
  return value === 'BUY' || value === 'SELL';
}

/** Reads a property of an untrusted value; a throwing getter or proxy reads as undefined. */
function safeRead(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    const read: unknown = Reflect.get(value, key);
    return read;
  } catch {
    return undefined;
  }
}

/**
 * Start-up (and resync) adoption, pure: given the LIVE orders the venue lists for one market, decide which
 * of them the bot takes over, which it cancels and which it leaves alone.
 *
 * Rules:
 * - an order whose clientOrderId parses with our bot tag is ours; its slot comes from the id;
 * - one order per slot is adopted: among several of ours in one slot the one with the HIGHEST sequence (the
 *   newest placement, which is what the previous run last believed in) is kept, the others are canceled as
 *   duplicates. Intents are not consulted: no quote exists before start-up is done, and the first plan
 *   replaces an adopted order that no longer fits anyway;
 * - ours but placed for another market key (or on a token that is not this market's) is canceled;
 * - a slot that already holds an open tracked order (resync) adopts nothing: the stray is canceled;
 * - an order already tracked is reported as `known` (the caller refreshes it);
 * - anything else (no clientOrderId, another tag) is foreign: left alone, or canceled when the policy says so.
 */
import { marketKey, tryParseClientOrderId } from './client-order-id.js';
import type { VenueOrderSnapshot } from './venue-port.js';
import type { Outcome } from '../core/venue-rules/index.js';

export type ForeignPolicy = 'leave' | 'cancel';

export interface AdoptionInput {
  readonly marketSlug: string;
  readonly tokens: { readonly yes: string; readonly no: string };
  readonly botTag: string;
  readonly liveOrders: readonly VenueOrderSnapshot[];
  readonly foreignPolicy: ForeignPolicy;
  /** Venue ids of orders the bot already tracks (resync); empty at start-up. */
  readonly trackedOrderIds?: ReadonlySet<string>;
  readonly trackedClientOrderIds?: ReadonlySet<string>;
  /** Slots already holding an open tracked order (resync). */
  readonly occupiedSlots?: ReadonlySet<string>;
}

export interface AdoptedOrder {
  readonly snapshot: VenueOrderSnapshot;
  readonly clientOrderId: string;
  readonly slot: string;
  readonly token: Outcome;
  readonly sequence: number;
}

export type AdoptionCancelReason = 'duplicate-in-slot' | 'slot-occupied' | 'other-market' | 'unknown-token' | 'foreign';

export interface AdoptionCancel {
  readonly snapshot: VenueOrderSnapshot;
  readonly reason: AdoptionCancelReason;
}

export interface AdoptionPlan {
  readonly adopt: readonly AdoptedOrder[];
  readonly known: readonly VenueOrderSnapshot[];
  readonly cancel: readonly AdoptionCancel[];
  readonly foreign: readonly VenueOrderSnapshot[];
  /** Highest sequence among our orders listed (to seed the id sequence), null when none. */
  readonly maxSequence: number | null;
}

export function adopt(input: AdoptionInput): AdoptionPlan {
  const key = marketKey(input.marketSlug);
  const trackedIds = input.trackedOrderIds ?? new Set<string>();
  const trackedCids = input.trackedClientOrderIds ?? new Set<string>();
  const occupied = input.occupiedSlots ?? new Set<string>();
  const known: VenueOrderSnapshot[] = [];
  const cancel: AdoptionCancel[] = [];
  const foreign: VenueOrderSnapshot[] = [];
  const candidates = new Map<string, AdoptedOrder[]>();
  let maxSequence: number | null = null;

  for (const snapshot of input.liveOrders) {
    const parts = snapshot.clientOrderId === null ? null : tryParseClientOrderId(snapshot.clientOrderId);
    if (parts === null || parts.botTag !== input.botTag || snapshot.clientOrderId === null) {
      if (input.foreignPolicy === 'cancel') cancel.push({ snapshot, reason: 'foreign' });
      else foreign.push(snapshot);
      continue;
    }
    maxSequence = maxSequence === null ? parts.sequence : Math.max(maxSequence, parts.sequence);
    if (trackedIds.has(snapshot.orderId) || trackedCids.has(snapshot.clientOrderId)) {
      known.push(snapshot);
      continue;
    }
    if (parts.marketKey !== key) {
      cancel.push({ snapshot, reason: 'other-market' });
      continue;
    }
    const token: Outcome | null = snapshot.tokenId === input.tokens.yes ? 'YES' : snapshot.tokenId === input.tokens.no ? 'NO' : null;
    if (token === null) {
      cancel.push({ snapshot, reason: 'unknown-token' });
      continue;
    }
    if (occupied.has(parts.slot)) {
      cancel.push({ snapshot, reason: 'slot-occupied' });
      continue;
    }
    const candidate: AdoptedOrder = { snapshot, clientOrderId: snapshot.clientOrderId, slot: parts.slot, token, sequence: parts.sequence };
    const list = candidates.get(parts.slot);
    if (list) list.push(candidate);
    else candidates.set(parts.slot, [candidate]);
  }

  const adopted: AdoptedOrder[] = [];
  for (const slot of [...candidates.keys()].sort()) {
    const list = (candidates.get(slot) ?? []).sort((a, b) => b.sequence - a.sequence);
    const [newest, ...older] = list;
    if (newest) adopted.push(newest);
    for (const order of older) cancel.push({ snapshot: order.snapshot, reason: 'duplicate-in-slot' });
  }
  return { adopt: adopted, known, cancel, foreign, maxSequence };
}

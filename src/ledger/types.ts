/**
 * The ledger's own typed inputs and outputs. The socket/REST layer (owned elsewhere) maps venue frames
 * to these; nothing here knows the wire format.
 *
 * Invariant: each record's fields are declared once, in the stored shape (`LedgerOrder`, `FillRecord`); every input,
 * key, update and normalised shape is derived from it with Pick/Omit, so a field changes in one place.
 *
 * Units: prices are integer ticks (1..999), sizes and collateral raw integers (1e6 = 1 share / 1 USDC),
 * times ms since the epoch. Signed amounts (positions, PnL) are raw integers that may be negative.
 */
import type { OrderType, Outcome, Side } from '../core/venue-rules/index.js';
import { ORDER_STATES } from '../orders/order-state.js';

export type { OrderType, Outcome, Side };

/** Order states as the order manager names them (DESIGN §3): one list, the order manager's. */
export const ORDER_STATUSES = ORDER_STATES;
export type LedgerOrderStatus = (typeof ORDER_STATUSES)[number];
/** Statuses after which an order can no longer trade (a later non-terminal update is stale). */
export const TERMINAL_ORDER_STATUSES: readonly LedgerOrderStatus[] = ['filled', 'canceled', 'rejected'];

/**
 * An order as the ledger stores it: the one declaration of the order record's fields. Every other order shape of the
 * ledger (its input, an update, the normalised input) is derived from it with Pick/Omit.
 */
export interface LedgerOrder {
  readonly clientOrderId: string;
  /** The venue's order id (UUID), once the placement was acknowledged. */
  readonly venueOrderId: string | null;
  readonly marketSlug: string;
  readonly slot: string;
  readonly token: Outcome;
  readonly tokenId: string;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly postOnly: boolean;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly remainingRaw: number;
  readonly status: LedgerOrderStatus;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
}

/** `T` with the fields `K` optional (and `undefined` accepted for them, as callers pass through optional values). */
export type OptionalFields<T, K extends keyof T> = Omit<T, K> & { readonly [P in K]?: T[P] | undefined };

/**
 * An order to record, at `atMs`. Optional fields default: no venue id yet, GTC, not post-only, remainingRaw = sizeRaw,
 * status 'pending-new'.
 */
export interface OrderInput
  extends OptionalFields<Omit<LedgerOrder, 'createdAtMs' | 'updatedAtMs' | 'venueOrderId'>, 'orderType' | 'postOnly' | 'remainingRaw' | 'status'> {
  readonly venueOrderId?: string | undefined;
  readonly atMs: number;
}

/** An order input after validation (src/ledger/validate.ts): every default applied. */
export interface NormalisedOrder extends Omit<LedgerOrder, 'createdAtMs' | 'updatedAtMs'> {
  readonly atMs: number;
}

/** Identifies an order by either id. */
export type OrderRef = { readonly clientOrderId: string } | { readonly venueOrderId: string };

/** A change of a stored order. `remainingRaw` only ever decreases: a larger value than stored (a reordered, older update) is ignored. */
export interface OrderUpdate extends OptionalFields<Pick<LedgerOrder, 'status' | 'remainingRaw'>, 'status' | 'remainingRaw'> {
  readonly venueOrderId?: string | undefined;
  readonly atMs: number;
}

/** An order update after validation: a field left out is null. */
export type NormalisedOrderUpdate = { readonly [K in 'status' | 'remainingRaw' | 'venueOrderId']: NonNullable<LedgerOrder[K]> | null } & {
  readonly atMs: number;
};

/**
 * Settlement state of a fill: MATCHED → provisional, MINED → mined, FAILED → failed.
 * Precedence failed > mined > provisional: the stored state is the highest seen, whatever the arrival
 * order, so the outcome depends only on the set of frames received.
 */
export const FILL_STATES = ['provisional', 'mined', 'failed'] as const;
export type FillState = (typeof FILL_STATES)[number];
export type FillRole = 'maker' | 'taker';
/** `trade` = a venue trade (or a reconciliation stand-in for one); `adjustment` = a position correction. */
export type FillKind = 'trade' | 'adjustment';
export type FillSource = 'venue' | 'reconcile';

/**
 * A fill as the ledger stores it: the one declaration of the fill record's fields. Every other fill shape of the
 * ledger (input, key, normalised input, new row, synthetic fill, adjustment) is derived from it with Pick/Omit.
 */
export interface FillRecord {
  readonly id: number;
  /** The venue's trade event id (SETTLEMENT `tradeEventId`, POST /orders `execution.tradeEventId`). */
  readonly tradeEventId: string;
  /** The venue order id of OUR order in this trade. (tradeEventId, orderId) identifies the fill. */
  readonly orderId: string;
  readonly clientOrderId: string | null;
  readonly marketSlug: string;
  readonly token: Outcome;
  readonly tokenId: string;
  readonly side: Side;
  /** The fill price in ticks (for a sweep, the average rounded to a tick; collateralRaw is exact); null for an adjustment. */
  readonly priceTicks: number | null;
  readonly sizeRaw: number;
  /** Collateral paid (BUY) or received (SELL), raw. */
  readonly collateralRaw: number;
  /** Fee charged, raw USDC (takers only; 0 for makers). */
  readonly feeRaw: number;
  readonly role: FillRole | null;
  readonly kind: FillKind;
  readonly source: FillSource;
  readonly state: FillState;
  readonly reason: string | null;
  readonly txHash: string | null;
  readonly atMs: number;
  readonly recordedAtMs: number;
  /** Derived by the position replay: realized PnL of this fill (average cost), position and cost after it. */
  readonly realizedDeltaRaw: number;
  readonly positionAfterRaw: number;
  readonly costAfterRaw: number;
}

/** The columns the position replay derives for each fill. */
export type FillDerivedColumns = Pick<FillRecord, 'realizedDeltaRaw' | 'positionAfterRaw' | 'costAfterRaw'>;

/** A fill row to insert: the record without what the store assigns (id, recording time, derived columns). */
export type NewFillRow = Omit<FillRecord, 'id' | 'recordedAtMs' | keyof FillDerivedColumns>;

export type FillKey = Pick<FillRecord, 'tradeEventId' | 'orderId'>;

/** A venue trade of one of our orders, validated (src/ledger/validate.ts): a price and a role always known. */
export interface NormalisedFill extends Omit<NewFillRow, 'kind' | 'source' | 'reason' | 'priceTicks' | 'role'> {
  readonly priceTicks: number;
  readonly role: FillRole;
}

/** A venue trade to record. `collateralRaw` defaults to collateralRaw(size, price, side); ids left out are null. */
export type FillInput = OptionalFields<NormalisedFill, 'clientOrderId' | 'collateralRaw' | 'txHash'>;

/** inserted = new fill; updated = state advanced (or data amended); duplicate = nothing changed. */
export type FillOutcome = 'inserted' | 'updated' | 'duplicate';
/** pending = the fill is not known yet: it will be born failed when it arrives. */
export type FailOutcome = 'updated' | 'duplicate' | 'pending';

/** Market resolution: a winning outcome (0 = YES, 1 = NO) or payout numerators [yes, no] for a split. */
export type ResolutionInput =
  | { readonly winningOutcomeIndex: 0 | 1 }
  | { readonly payoutNumerators: readonly [number, number] };

export interface Resolution {
  readonly marketSlug: string;
  /** null for a payout split. */
  readonly winningOutcomeIndex: 0 | 1 | null;
  readonly payoutYes: number;
  readonly payoutNo: number;
  readonly resolvedAtMs: number;
}

export type ResolutionOutcome = 'inserted' | 'updated' | 'duplicate';

export interface Mark {
  readonly marketSlug: string;
  /** YES mid in millionths of a unit (500500 = 0.5005): exact for half-tick mids. */
  readonly midMicros: number;
  readonly atMs: number;
}

/** A conflict the ledger resolved by rule; counted by the observer so an operator sees it. */
export interface LedgerConflict {
  readonly kind:
    | 'fill-data-differs'
    | 'fill-failed-after-mined'
    | 'fill-mined-after-failed'
    | 'resolution-changed'
    | 'redemption-differs';
  readonly key: string;
  readonly detail: string;
}

/** The venue and the ledger disagree; both values are given. */
export type Mismatch =
  | {
      readonly kind: 'order-filled';
      readonly orderId: string;
      readonly clientOrderId: string | null;
      readonly venueFilledRaw: number;
      readonly ledgerFilledRaw: number;
    }
  | {
      readonly kind: 'position';
      readonly marketSlug: string;
      readonly token: Outcome;
      readonly venueRaw: number;
      /** The ledger's balance counting every fill that has not failed. */
      readonly ledgerRaw: number;
      /** Signed size of still-provisional fills included in ledgerRaw (the venue may not count them yet). */
      readonly pendingRaw: number;
    };

/**
 * How often the periodic check has seen a mismatch: 'first' (this check only: often a fill in flight, checked again on
 * the next pass, never repaired yet) or 'persistent' (on the previous check too: repaired, or left to an operator).
 */
export type MismatchSighting = 'first' | 'persistent';

/** What `repairLedger` did (or could not do) about a mismatch. Each write is recorded with its reason. */
export type RepairAction =
  | {
      readonly kind: 'synthetic-fill';
      readonly tradeEventId: string;
      readonly orderId: string;
      readonly marketSlug: string;
      readonly token: Outcome;
      readonly side: Side;
      readonly priceTicks: number;
      readonly sizeRaw: number;
      readonly reason: string;
    }
  | {
      readonly kind: 'fill-reversed';
      readonly tradeEventId: string;
      readonly orderId: string;
      readonly sizeRaw: number;
      readonly reason: string;
    }
  | {
      /**
       * A provisional fill whose settlement report never came: confirmed (state mined) because the venue's balance
       * counts it, or failed (reversed) because it excludes it.
       */
      readonly kind: 'fill-confirmed' | 'fill-failed';
      readonly tradeEventId: string;
      readonly orderId: string;
      readonly marketSlug: string;
      readonly token: Outcome;
      readonly side: Side;
      readonly sizeRaw: number;
      readonly reason: string;
    }
  | {
      readonly kind: 'position-adjusted';
      readonly tradeEventId: string;
      readonly marketSlug: string;
      readonly token: Outcome;
      readonly deltaRaw: number;
      readonly priceMicros: number;
      readonly reason: string;
    }
  | { readonly kind: 'unrepaired'; readonly mismatch: Mismatch; readonly reason: string };

/**
 * Hooks for everything an operator would want counted. Called after the transaction commits;
 * an observer that throws is ignored (metrics never break bookkeeping).
 */
export interface LedgerObserver {
  onFill?(outcome: FillOutcome, state: FillState, source: FillSource): void;
  onEvent?(kind: string, isNew: boolean): void;
  onConflict?(conflict: LedgerConflict): void;
  /** A (market, token) position was rebuilt from its fills (a reversal or an out-of-order fill). */
  onReplay?(marketSlug: string, token: Outcome, fills: number, ms: number): void;
  /** A difference `reconcile` found; `sighting` says whether the previous check saw it too (only then is it an error). */
  onMismatch?(mismatch: Mismatch, sighting: MismatchSighting): void;
  onRepair?(action: RepairAction): void;
  /** Duration of each write transaction, by operation name. */
  onWrite?(operation: string, ms: number): void;
}

/**
 * The wallet's USDC checked against the chain (docs/settlement.md "The wallet's USDC against the chain").
 *
 * The bot's figure of the wallet's USDC is the ledger's cash account: an ANCHOR (the chain's `balanceOf` at a check
 * where nothing was in flight, with the ledger's cash total at that moment) plus every USDC flow the ledger booked
 * since (src/ledger/cash-repo.ts: fills, redemptions API and on-chain, merges, outside flows, paid rewards). At each
 * chain check (`capital.chainCheckSec`) the chain's figure is held against it:
 * - within `toleranceRaw`: it agrees (and, when nothing is in flight, the anchor moves to this read, so rounding below
 *   the tolerance never adds up);
 * - beyond it while flows are in flight (a provisional fill, anything booked within the in-flight window before the
 *   read): 'in-flight' when the flows in flight explain it (the chain may or may not show each yet), else 'unsettled';
 *   neither is a difference (no count, no repair): the next settled check decides;
 * - beyond it with nothing in flight: 'suspect' the first time; the SAME difference (within the tolerance) on the next
 *   settled check is a 'difference': logged with both figures, counted, and repaired as a REST difference is: the
 *   anchor adopts the chain's figure. Nothing is booked (no fill, no PnL): the cash account is a view.
 * So a fill or a redemption between the two reads never makes a difference, and a real one is reported once.
 *
 * Owns: the rule (`checkUsdc`, pure) and a thin shell (`ChainUsdcCheck`) keeping the anchor in the ledger's key-value
 * table (it survives a restart; flows booked while the bot was down are in the ledger) and the pending sighting in
 * memory. Invariants: raw 1e6 integers only; nothing written but the anchor; a failure never throws into the core.
 */
import { errorText } from '../core/errors.js';
import { rawToDecimal } from '../core/venue-rules/index.js';
import type { CashFlows } from '../ledger/index.js';

/** The ledger key holding the anchor (JSON {usdcRaw, cashRaw, atMs}). */
export const KV_CASH_ANCHOR = 'capital.cashAnchor';

export interface CashAnchor {
  /** The chain's USDC at the anchoring read (raw). */
  readonly usdcRaw: number;
  /** The ledger's cash total (Σ flows) at that read (raw). */
  readonly cashRaw: number;
  readonly atMs: number;
}

export interface UsdcCheckSettings {
  /** A difference at or below this is no difference (raw). */
  readonly toleranceRaw: number;
  /** Flows written this long before a read may not show on the chain yet (ms). */
  readonly inFlightMs: number;
}

export interface UsdcCheckInput {
  readonly chainUsdcRaw: number;
  readonly atMs: number;
  readonly flows: CashFlows;
  readonly anchor: CashAnchor | null;
  /** The difference a previous settled check saw (unconfirmed), or null. */
  readonly pendingRaw: number | null;
  readonly toleranceRaw: number;
}

export type UsdcVerdict =
  | { readonly kind: 'anchored'; readonly anchor: CashAnchor }
  | { readonly kind: 'waiting' }
  | { readonly kind: 'agrees'; readonly expectedRaw: number; readonly differenceRaw: number; readonly anchor: CashAnchor | null }
  | { readonly kind: 'in-flight' | 'unsettled' | 'suspect'; readonly expectedRaw: number; readonly differenceRaw: number }
  | { readonly kind: 'difference'; readonly expectedRaw: number; readonly differenceRaw: number; readonly anchor: CashAnchor };

export type UsdcVerdictKind = UsdcVerdict['kind'];
export const USDC_VERDICTS: readonly UsdcVerdictKind[] = ['anchored', 'waiting', 'agrees', 'in-flight', 'unsettled', 'suspect', 'difference'];

/** The ledger's figure of the wallet's USDC: the anchor plus the flows booked since. Pure. */
export function expectedUsdcRaw(anchor: CashAnchor, cashTotalRaw: number): number {
  return anchor.usdcRaw + (cashTotalRaw - anchor.cashRaw);
}

/** One check's verdict (see the module comment). Pure. */
export function checkUsdc(input: UsdcCheckInput): UsdcVerdict {
  const { chainUsdcRaw: chain, flows, toleranceRaw: tol } = input;
  const settled = flows.inFlight.count === 0;
  const here: CashAnchor = { usdcRaw: chain, cashRaw: flows.totalRaw, atMs: input.atMs };
  if (input.anchor === null) return settled ? { kind: 'anchored', anchor: here } : { kind: 'waiting' };
  const expectedRaw = expectedUsdcRaw(input.anchor, flows.totalRaw);
  const differenceRaw = chain - expectedRaw;
  if (Math.abs(differenceRaw) <= tol) return { kind: 'agrees', expectedRaw, differenceRaw, anchor: settled ? here : null };
  if (!settled) {
    // Each flow in flight may or may not show on the chain yet: USDC coming in may be missing, USDC going out may not have left.
    const low = expectedRaw - flows.inFlight.inRaw - tol;
    const high = expectedRaw + flows.inFlight.outRaw + tol;
    return { kind: chain >= low && chain <= high ? 'in-flight' : 'unsettled', expectedRaw, differenceRaw };
  }
  if (input.pendingRaw !== null && Math.abs(differenceRaw - input.pendingRaw) <= tol) return { kind: 'difference', expectedRaw, differenceRaw, anchor: here };
  return { kind: 'suspect', expectedRaw, differenceRaw };
}

/** The anchor kept in the ledger (null: none, or an entry that is not one). */
export function cashAnchorOf(text: string | null): CashAnchor | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return null;
    const { usdcRaw, cashRaw, atMs } = value as Record<string, unknown>;
    return Number.isSafeInteger(usdcRaw) && Number.isSafeInteger(cashRaw) && Number.isSafeInteger(atMs)
      ? { usdcRaw: usdcRaw as number, cashRaw: cashRaw as number, atMs: atMs as number }
      : null;
  } catch {
    return null;
  }
}

/** What the shell reads and writes of the ledger (src/ledger/store.ts). */
export interface CashCheckLedger {
  readonly cash: { flows(sinceMs: number): CashFlows };
  getKv(key: string): string | null;
  setKv(key: string, value: string): void;
  /** The ledger's clock (its rows' recorded times). */
  now(): number;
}

export interface ChainUsdcCheckOptions {
  readonly ledger: CashCheckLedger;
  readonly settings: UsdcCheckSettings;
  readonly log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; debug(obj: object, msg: string): void };
  /** Every verdict (the metrics: checks by verdict; a 'difference' is the counted difference). */
  readonly onVerdict?: (verdict: UsdcVerdict) => void;
}

const usdc = (raw: number): string => `${rawToDecimal(raw)} USDC`;

/** The core's hook (src/capital/core.ts): `begin()` just before the chain read, `check()` with its USDC. */
export class ChainUsdcCheck {
  private pendingRaw: number | null = null;

  constructor(private readonly o: ChainUsdcCheckOptions) {}

  /** The ledger's time as the chain read starts: flows written from `begin() − inFlightMs` on are in flight. */
  begin(): number {
    return this.o.ledger.now();
  }

  /** The chain's USDC read after `begin()`: the verdict, logged, reported, and the anchor moved when it says so. Never throws. */
  check(chainUsdcRaw: number, begunAtMs: number): UsdcVerdict | null {
    const { ledger, log } = this.o;
    try {
      const flows = ledger.cash.flows(Math.max(0, begunAtMs - this.o.settings.inFlightMs));
      const verdict = checkUsdc({ chainUsdcRaw, atMs: begunAtMs, flows, anchor: cashAnchorOf(ledger.getKv(KV_CASH_ANCHOR)), pendingRaw: this.pendingRaw, toleranceRaw: this.o.settings.toleranceRaw });
      if (verdict.kind === 'suspect') this.pendingRaw = verdict.differenceRaw;
      else if (verdict.kind === 'agrees' || verdict.kind === 'difference' || verdict.kind === 'anchored') this.pendingRaw = null;
      if ('anchor' in verdict && verdict.anchor !== null) ledger.setKv(KV_CASH_ANCHOR, JSON.stringify(verdict.anchor));
      this.report(verdict, chainUsdcRaw, flows);
      this.o.onVerdict?.(verdict);
      return verdict;
    } catch (error) {
      log.warn({ err: errorText(error) }, 'capital: the wallet\'s USDC could not be held against the ledger; the next check tries again');
      return null;
    }
  }

  private report(verdict: UsdcVerdict, chainRaw: number, flows: CashFlows): void {
    const { log } = this.o;
    switch (verdict.kind) {
      case 'anchored':
        log.info({ chainUsdcRaw: chainRaw, cashRaw: flows.totalRaw }, `capital: the wallet's USDC on the chain (${usdc(chainRaw)}) anchors the ledger's cash account`);
        return;
      case 'waiting':
        log.debug({ chainUsdcRaw: chainRaw, inFlight: flows.inFlight.count }, 'capital: the wallet\'s USDC not anchored yet: flows in flight');
        return;
      case 'agrees':
        log.debug({ chainUsdcRaw: chainRaw, ledgerUsdcRaw: verdict.expectedRaw, differenceRaw: verdict.differenceRaw }, 'capital: the wallet\'s USDC agrees with the ledger');
        return;
      case 'in-flight':
        log.debug({ chainUsdcRaw: chainRaw, ledgerUsdcRaw: verdict.expectedRaw, differenceRaw: verdict.differenceRaw, inFlight: flows.inFlight }, 'capital: the wallet\'s USDC differs by flows in flight; checked again later');
        return;
      case 'unsettled':
      case 'suspect': {
        const when = verdict.kind === 'suspect' ? 'confirmed or cleared by the next check' : 'flows in flight: measured again at a settled check';
        log.info(
          { chainUsdcRaw: chainRaw, ledgerUsdcRaw: verdict.expectedRaw, differenceRaw: verdict.differenceRaw, chainUsdc: rawToDecimal(chainRaw), ledgerUsdc: rawToDecimal(verdict.expectedRaw) },
          `capital: the wallet's USDC on the chain (${usdc(chainRaw)}) differs from the ledger's (${usdc(verdict.expectedRaw)}); ${when}`,
        );
        return;
      }
      case 'difference':
        log.warn(
          {
            chainUsdcRaw: chainRaw,
            ledgerUsdcRaw: verdict.expectedRaw,
            differenceRaw: verdict.differenceRaw,
            chainUsdc: rawToDecimal(chainRaw),
            ledgerUsdc: rawToDecimal(verdict.expectedRaw),
            differenceUsdc: rawToDecimal(verdict.differenceRaw),
          },
          `capital: the wallet's USDC on the chain (${usdc(chainRaw)}) differs from the ledger's cash account (${usdc(verdict.expectedRaw)}) by ${usdc(verdict.differenceRaw)} on two checks: the chain's figure adopted, nothing booked`,
        );
        return;
    }
  }
}

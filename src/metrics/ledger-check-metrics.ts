/**
 * The metrics of the periodic ledger check (src/booking/ledger-sync.ts): the differences it found between the ledger
 * and the venue, split by how often they were seen.
 *
 * - `outcome_maker_ledger_mismatches_total{kind}`: a difference seen on two consecutive checks (it persisted: the
 *   check repairs it, or leaves it to an operator when it cannot). The critical alert OutcomeMakerLedgerMismatch
 *   (ops/alerts.yml) reads this one.
 * - `outcome_maker_ledger_mismatch_first_sightings_total{kind}`: a difference seen once, checked again on the next
 *   pass. Most are a fill in flight (booked from the feed after the venue's answer was computed, or matched at the
 *   venue and not yet delivered by the feed) and are gone on the next check: counted, never alerted on.
 *
 * Owns: these metrics' names, help and labels. Invariants: labels are bounded (the ledger's mismatch kinds, through
 * the caller's bounded label) and pre-set to 0 so that `increase()` sees the first one.
 */
import { Counter, type Registry } from 'prom-client';
import { LEDGER_MISMATCH_KINDS } from './metric-labels.js';

export interface LedgerCheckMetrics {
  /** A difference seen on two consecutive checks (alerted on). */
  ledgerMismatch(kind: string): void;
  /** A difference seen for the first time: checked again on the next pass (not alerted on). */
  ledgerMismatchFirstSighting(kind: string): void;
}

export function createLedgerCheckMetrics(registers: Registry[], label: (kind: string) => string): LedgerCheckMetrics {
  const labelNames = ['kind'] as const;
  const persistent = new Counter({
    name: 'outcome_maker_ledger_mismatches_total',
    help: 'Differences between the ledger and the venue seen on two consecutive checks (repaired, or left to an operator), by kind.',
    labelNames,
    registers,
  });
  const firstSightings = new Counter({
    name: 'outcome_maker_ledger_mismatch_first_sightings_total',
    help: 'Differences between the ledger and the venue seen once (most are a fill in flight), checked again on the next pass, by kind.',
    labelNames,
    registers,
  });
  for (const kind of LEDGER_MISMATCH_KINDS) {
    persistent.inc({ kind: label(kind) }, 0);
    firstSightings.inc({ kind: label(kind) }, 0);
  }
  return {
    ledgerMismatch(kind) {
      persistent.inc({ kind: label(kind) });
    },
    ledgerMismatchFirstSighting(kind) {
      firstSightings.inc({ kind: label(kind) });
    },
  };
}

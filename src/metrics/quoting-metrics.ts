/**
 * The metric of the bot's quoting time (src/operator/quoting-time.ts): how long nothing has been quoted while markets
 * were expected to be quoted (traded, before their stop before settlement). Between two hourly ladders (no market
 * expected) it reads 0, so the alert on it (ops/alerts.yml, OutcomeMakerNothingQuoted) does not fire on a planned gap.
 *
 * Owns: this metric's name and help. Invariants: the gauge starts at 0; a value that is not finite and non-negative is
 * ignored (the previous value stays).
 */
import { Gauge, type Registry } from 'prom-client';

export interface QuotingMetrics {
  /** How long (ms) the bot has had no order on the book while markets were expected; 0 while quoting or idle. */
  nothingQuotedFor(ms: number): void;
}

export function createQuotingMetrics(registers: Registry[]): QuotingMetrics {
  const gauge = new Gauge({
    name: 'outcome_maker_nothing_quoted_seconds',
    help: 'Seconds the bot has had no order on the book while markets were expected to be quoted (traded, before their stop before settlement); 0 while quoting or while nothing is expected (between two ladders).',
    registers,
  });
  gauge.set(0);
  return {
    nothingQuotedFor(ms) {
      if (Number.isFinite(ms) && ms >= 0) gauge.set(ms / 1000);
    },
  };
}

/**
 * The metrics of the account's capital (src/capital/capital-state.ts, docs/settlement.md "Capital by state"): USDC by
 * state (free, locked in open orders, in open positions, in resolved markets not yet redeemed, redeemed and merged
 * today), the gas spent (ETH and USDC, today and in all), the on-chain transactions of the capital core by kind and
 * result, the wallets short of gas, the chain check's differences, and the markets whose quoting is trimmed for want
 * of capital with the USDC short.
 *
 * The capital and the trims are read when /metrics is scraped (`capitalSource`: the ledger's figures, never a copy
 * that could go stale); the rest are counters fed by the capital core's observer.
 *
 * Owns: these metrics' names, help and labels. Invariants: labels bounded (states, units, periods, kinds and results
 * are fixed lists); a failing read leaves the gauges empty for that scrape, never throws into the exposition.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export const CAPITAL_STATES = ['free', 'open_orders', 'open_positions', 'unredeemed', 'redeemed_today', 'merged_today'] as const;
export type CapitalStateLabel = (typeof CAPITAL_STATES)[number];
export const CAPITAL_TX_KINDS = ['redeem', 'merge'] as const;
/** How one capital step ended (src/capital/core.ts CapitalResult). */
export const CAPITAL_TX_RESULTS = ['redeemed', 'merged', 'not-ready', 'reverted', 'insufficient-gas', 'gas-price-too-high', 'error', 'recovered', 'dropped'] as const;
export type CapitalTxResult = (typeof CAPITAL_TX_RESULTS)[number];

/** What a scrape reads (raw 1e6 USDC, wei as decimal text); null: nothing to show (no ledger yet). */
export interface CapitalMetricsSnapshot {
  readonly usdcRaw: Readonly<Partial<Record<CapitalStateLabel, number>>>;
  readonly gas: { readonly today: { readonly wei: string; readonly usdcRaw: number }; readonly total: { readonly wei: string; readonly usdcRaw: number } };
  readonly trimmed: { readonly markets: number; readonly shortRaw: number };
}

export interface CapitalMetrics {
  /** Where a scrape reads the capital by state and the trims (set once by the composition). */
  capitalSource(read: () => CapitalMetricsSnapshot | null): void;
  /** One step of the capital core ended with `result`. */
  capitalTx(kind: 'redeem' | 'merge', result: CapitalTxResult): void;
  /** The chain check found `count` tokens whose ledger holding differs from the chain's (0: none). */
  chainDifferences(count: number): void;
  /** The chain check held the wallet's USDC against the ledger's cash account (src/capital/cash-check.ts): its verdict. */
  chainUsdc(verdict: ChainUsdcVerdict, differenceRaw: number | null): void;
}

/** The USDC check's verdicts (src/capital/cash-check.ts UsdcVerdictKind). */
export const CHAIN_USDC_VERDICTS = ['anchored', 'waiting', 'agrees', 'in-flight', 'unsettled', 'suspect', 'difference'] as const;
export type ChainUsdcVerdict = (typeof CHAIN_USDC_VERDICTS)[number];

const WEI_PER_ETH = 10n ** 18n;

/** Wei (decimal text) as ETH, exact to the last 1e-18 a float can carry. */
export function weiToEth(wei: string): number {
  const value = BigInt(wei);
  return Number(value / WEI_PER_ETH) + Number(value % WEI_PER_ETH) / 1e18;
}

export function createCapitalMetrics(registers: Registry[]): CapitalMetrics {
  let source: (() => CapitalMetricsSnapshot | null) | null = null;
  /** Read at each collect (never a copy that could go stale); a failing read shows nothing. */
  const read = (): CapitalMetricsSnapshot | null => {
    try {
      return source === null ? null : source();
    } catch {
      return null;
    }
  };
  new Gauge({
    name: 'outcome_maker_capital_usdc',
    help: 'The account\'s capital by state, USDC: free (the wallet\'s USDC at the last chain check less the open BUYs), open_orders, open_positions (cost), unredeemed (resolved markets\' payout not yet redeemed), redeemed_today and merged_today (on-chain, UTC day).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.reset();
      const s = read();
      if (s === null) return;
      for (const state of CAPITAL_STATES) {
        const raw = s.usdcRaw[state];
        if (raw !== undefined) this.set({ state }, raw / 1e6);
      }
    },
  });
  new Gauge({
    name: 'outcome_maker_capital_gas_spent',
    help: 'Gas the on-chain redemptions and merges spent, in ETH and in USDC at the configured ETH price; period today (UTC) or total.',
    labelNames: ['unit', 'period'] as const,
    registers,
    collect() {
      this.reset();
      const s = read();
      if (s === null) return;
      for (const period of ['today', 'total'] as const) {
        this.set({ unit: 'eth', period }, weiToEth(s.gas[period].wei));
        this.set({ unit: 'usdc', period }, s.gas[period].usdcRaw / 1e6);
      }
    },
  });
  new Gauge({
    name: 'outcome_maker_quoting_trimmed_markets',
    help: 'Traded markets whose last quotes were trimmed or dropped for want of capital (USDC).',
    registers,
    collect() {
      const s = read();
      this.set(s?.trimmed.markets ?? 0);
    },
  });
  new Gauge({
    name: 'outcome_maker_quoting_capital_short_usdc',
    help: 'USDC the trimmed BUY quotes lacked at their last quote cycle, over the traded markets.',
    registers,
    collect() {
      const s = read();
      this.set((s?.trimmed.shortRaw ?? 0) / 1e6);
    },
  });
  const txs = new Counter({ name: 'outcome_maker_capital_transactions_total', help: 'Steps of the on-chain capital core (redeem, merge) by result: redeemed, merged, not-ready, reverted, insufficient-gas, gas-price-too-high, error, recovered, dropped.', labelNames: ['kind', 'result'] as const, registers });
  for (const kind of CAPITAL_TX_KINDS) for (const result of CAPITAL_TX_RESULTS) txs.inc({ kind, result }, 0);
  const differences = new Counter({ name: 'outcome_maker_chain_differences_total', help: 'Tokens whose ledger holding differed from the chain\'s balanceOfBatch at a chain check (each check counts its differences).', registers });
  differences.inc(0);
  const usdcChecks = new Counter({ name: 'outcome_maker_chain_usdc_checks_total', help: 'Chain checks of the wallet\'s USDC (balanceOf) against the ledger\'s cash account, by verdict: anchored, waiting, agrees, in-flight (explained by flows not on the chain yet), unsettled, suspect (first sighting), difference (the same on two settled checks: repaired).', labelNames: ['verdict'] as const, registers });
  for (const verdict of CHAIN_USDC_VERDICTS) usdcChecks.inc({ verdict }, 0);
  const usdcDifferences = new Counter({ name: 'outcome_maker_chain_usdc_differences_total', help: 'Differences between the wallet\'s USDC on the chain and the ledger\'s cash account, confirmed on two settled checks and repaired (the chain\'s figure adopted, nothing booked).', registers });
  usdcDifferences.inc(0);
  const usdcDifference = new Gauge({ name: 'outcome_maker_chain_usdc_difference_usdc', help: 'The last confirmed difference, chain minus ledger, USDC (0 until one).', registers });
  usdcDifference.set(0);
  return {
    capitalSource(read) {
      source = read;
    },
    capitalTx(kind, result) {
      txs.inc({ kind, result });
    },
    chainDifferences(count) {
      if (Number.isSafeInteger(count) && count > 0) differences.inc(count);
    },
    chainUsdc(verdict, differenceRaw) {
      usdcChecks.inc({ verdict });
      if (verdict !== 'difference') return;
      usdcDifferences.inc();
      if (differenceRaw !== null) usdcDifference.set(differenceRaw / 1e6);
    },
  };
}

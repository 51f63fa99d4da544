/**
 * The ladder bench's printed report (pure formatting of bench/ladder-stats.ts): the table of rows, the targets line
 * and the paired comparison's lines (36 markets minus 4 on the common markets, seed by seed).
 */
import { markoutFloor, paired, standardError, targets, type LadderFigures, type LadderRow, type MarkoutStat, type SeedMean } from './ladder-stats.js';

export function targetsLine(all: readonly LadderRow[]): string {
  const verdicts = targets(all);
  const at36 = all.find((r) => r.markets === 36 && r.policy === 'cross-market');
  const at4 = all.find((r) => r.markets === 4 && r.policy === 'cross-market');
  if (verdicts === null || at36 === undefined || at4 === undefined) return 'targets: not judged (the 4- and 36-market cross-market rows are needed)';
  const met = (ok: boolean): string => (ok ? 'met' : 'NOT met');
  const m36 = at36.markoutStats.common1s;
  const m4 = at4.markoutStats.common1s;
  return [
    `targets at 36 markets, cross-market (seeds ${at36.seeds.join(', ')}):`,
    `error ${at36.errorTicks.toFixed(3)} ≤ 1 tick ${met(verdicts.errorTicks)};`,
    `move→replaced p99 ${at36.moveToReplacedP99Ms.toFixed(0)} ms ≤ 1500 ms ${met(verdicts.moveToReplacedP99Ms)};`,
    `1 s markout per fill on the common markets ${m36.meanPerFillUsdc.toFixed(4)} ± ${standardError(m36).toFixed(4)} (${m36.fills} fills)`,
    `≥ floor ${markoutFloor(m4).floorUsdc.toFixed(4)} from ${m4.meanPerFillUsdc.toFixed(4)} ± ${standardError(m4).toFixed(4)} (4 markets, ${m4.fills} fills)`,
    `${met(verdicts.markout1sCommon)} (${verdicts.markout1sCommonDecided ? 'outside' : 'within'} 1.96 standard errors)`,
  ].join(' ');
}

const spread = (row: LadderRow, figure: keyof LadderFigures, show: (v: number) => string): string => {
  const [low, high] = row.range[figure];
  return row.seeds.length < 2 ? show(row[figure]) : `${show(row[figure])} (${show(low)}…${show(high)})`;
};

export function table(all: readonly LadderRow[]): string {
  const header = ['markets', 'policy', 'error ticks', 'off > 2 ticks', 'move→replaced p50', 'p99', 'common slot p50/p99', 'markout 1 s common ± SE', 'markout 10 s common ± SE', 'markout 1 s all ± SE', 'markout 10 s all ± SE', 'fills common/all (all seeds)', 'requests/s', 'trading PnL', 'rewards', 'rebates'];
  const usdc = (v: number): string => v.toFixed(4);
  const ms = (v: number): string => `${v.toFixed(0)} ms`;
  const pooled = (stat: MarkoutStat): string => `${usdc(stat.meanPerFillUsdc)} ± ${usdc(standardError(stat))}`;
  const lines = all.map((r) => [
    String(r.markets),
    r.policy,
    spread(r, 'errorTicks', (v) => v.toFixed(2)),
    spread(r, 'staleShare', (v) => `${(v * 100).toFixed(1)} %`),
    spread(r, 'moveToReplacedP50Ms', ms),
    spread(r, 'moveToReplacedP99Ms', ms),
    `${r.commonSlotReplacedP50Ms.toFixed(0)}/${r.commonSlotReplacedP99Ms.toFixed(0)} ms`,
    pooled(r.markoutStats.common1s),
    pooled(r.markoutStats.common10s),
    pooled(r.markoutStats.all1s),
    pooled(r.markoutStats.all10s),
    `${r.markoutStats.common1s.fills}/${r.markoutStats.all1s.fills}`,
    r.requestsPerSecond.toFixed(2),
    r.tradingPnlUsdc.toFixed(2),
    r.rewardsUsdc.toFixed(2),
    r.rebatesUsdc.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...lines.map(line)].join('\n');
}


/** The paired comparison: one line per seed, then the means with their standard errors, the ratio and the verdict. */
export function pairedLines(all: readonly LadderRow[]): string[] {
  const p = paired(all);
  if (p === null) return ['paired: not judged (the 4- and 36-market cross-market rows need a seed in common with fills)'];
  const usdc = (v: number): string => (v >= 0 ? `+${v.toFixed(4)}` : v.toFixed(4));
  // One seed has no spread across seeds: no standard error to print.
  const mean = (m: SeedMean): string =>
    Number.isFinite(m.seUsdc) ? `${usdc(m.meanUsdc)} ± ${m.seUsdc.toFixed(4)} (95 %: ±${m.halfWidth95Usdc.toFixed(4)})` : `${usdc(m.meanUsdc)} (one seed: no standard error)`;
  const lines = p.perSeed.map(
    (s) =>
      `paired seed ${s.seed}: 1 s ${usdc(s.at36.common1sUsdc)} at 36 (${s.at36.fillsCommon} fills) − ${usdc(s.at4.common1sUsdc)} at 4 (${s.at4.fillsCommon}) = ${usdc(s.diff1sUsdc)}; ` +
      `10 s ${usdc(s.at36.common10sUsdc)} − ${usdc(s.at4.common10sUsdc)} = ${usdc(s.diff10sUsdc)}; margin over ${p.factor} × the 4-market one ${usdc(s.gap1sUsdc)}`,
  );
  lines.push(
    `paired over seeds ${p.seeds.join(', ')} (36 − 4, common markets, per fill): 1 s ${mean(p.diff1s)}, 10 s ${mean(p.diff10s)}; ratio 36/4 at 1 s ${p.ratio1s.toFixed(3)}, at 10 s ${p.ratio10s.toFixed(3)}`,
    `paired verdict: 1 s markout at 36 ≥ ${p.factor} × the one at 4 — margin ${mean(p.gap1s)}: ${p.met ? 'met' : 'NOT met'} (${p.decided ? 'decided: outside' : 'not decided: within'} the 95 % interval)`,
  );
  return lines;
}

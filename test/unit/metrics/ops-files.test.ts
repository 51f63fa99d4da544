import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { createMetrics, METRIC_NAMES } from '../../../src/metrics/index.js';

const root = resolve(__dirname, '../../..');
const dashboardPath = resolve(root, 'ops/grafana-dashboard.json');
const alertsPath = resolve(root, 'ops/alerts.yml');

/** Every metric-looking name in a PromQL expression (ours, Node's defaults, and Prometheus' `up`). */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\b(outcome_maker_[a-z0-9_]+|process_[a-z0-9_]+|nodejs_[a-z0-9_]+|up)\b(?!\s*\()/g)].map((m) => m[1] ?? '');
}

/** Series names a registry exposes, with histogram suffixes. */
async function exposedNames(): Promise<Set<string>> {
  const registry = new Registry();
  createMetrics({ registry });
  const names = new Set<string>(['up']);
  for (const metric of await registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (registry.getSingleMetric(metric.name) instanceof Histogram) for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

function baseName(name: string): string {
  return name.replace(/_(bucket|sum|count)$/, '');
}

const dashboardSchema = z.object({
  title: z.string(),
  uid: z.string(),
  panels: z.array(
    z.object({
      type: z.string(),
      title: z.string(),
      targets: z.array(z.object({ expr: z.string(), refId: z.string() })).optional(),
    }),
  ),
  templating: z.object({ list: z.array(z.object({ name: z.string(), query: z.unknown() })) }),
  annotations: z.object({ list: z.array(z.object({ expr: z.string().optional() })) }).optional(),
});

const alertsSchema = z.object({
  groups: z.array(
    z.object({
      name: z.string(),
      rules: z.array(
        z.strictObject({
          alert: z.string(),
          expr: z.string(),
          for: z.string().optional(),
          labels: z.object({ severity: z.enum(['critical', 'warning', 'info']) }),
          annotations: z.object({ summary: z.string(), description: z.string() }),
        }),
      ),
    }),
  ),
});

describe('ops/grafana-dashboard.json', () => {
  const dashboard = dashboardSchema.parse(JSON.parse(readFileSync(dashboardPath, 'utf8')));
  const exprs = [
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
    ...dashboard.templating.list.map((v) => (typeof v.query === 'string' ? v.query : '')),
    ...(dashboard.annotations?.list ?? []).map((a) => a.expr ?? ''),
  ];

  it('names only metrics the bot exports', async () => {
    const exposed = await exposedNames();
    const named = exprs.flatMap(metricNames);
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((name) => !exposed.has(name))).toEqual([]);
    const ours = new Set<string>(METRIC_NAMES);
    expect(named.filter((name) => name.startsWith('outcome_maker_') && !ours.has(baseName(name)))).toEqual([]);
  });

  it('groups only by labels the metric has (the fills by side and token: a BUY of NO is the bot\'s ask, a BUY of YES its bid)', async () => {
    const registry = new Registry();
    createMetrics({ registry });
    const ours = new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
    const declared = (name: string): readonly string[] => {
      const metric: unknown = registry.getSingleMetric(baseName(name));
      const names: unknown = typeof metric === 'object' && metric !== null ? Reflect.get(metric, 'labelNames') : undefined;
      return Array.isArray(names) ? names.map(String) : [];
    };
    const wrong: string[] = [];
    for (const expr of exprs) {
      const grouped = /^sum by \(([^)]*)\) \((?:increase|rate)\((outcome_maker_[a-z0-9_]+)\{/.exec(expr);
      if (grouped?.[1] === undefined || grouped[2] === undefined || !ours.has(baseName(grouped[2]))) continue;
      const labels = grouped[1].split(',').map((l) => l.trim());
      for (const label of labels) if (!declared(grouped[2]).includes(label)) wrong.push(`${grouped[2]} by ${label}`);
    }
    expect(wrong).toEqual([]);
    expect(exprs.some((e) => e.startsWith('sum by (market, side, token) (increase(outcome_maker_fills_total{'))).toBe(true);
  });

  it('has a panel for every metric', () => {
    const named = new Set(exprs.flatMap(metricNames).map(baseName));
    expect(METRIC_NAMES.filter((name) => !named.has(name))).toEqual([]);
  });
});

describe('ops/alerts.yml', () => {
  const alerts = alertsSchema.parse(parse(readFileSync(alertsPath, 'utf8')));
  const rules = alerts.groups.flatMap((g) => g.rules);

  it('names only metrics the bot exports', async () => {
    const exposed = await exposedNames();
    const named = rules.flatMap((r) => metricNames(r.expr));
    expect(named.filter((name) => !exposed.has(name))).toEqual([]);
  });

  it('alerts on feed down, stale books, 429s, the kill switch and ledger mismatches', () => {
    const byMetric = (metric: string) => rules.filter((r) => r.expr.includes(metric)).map((r) => r.alert);
    expect(byMetric('outcome_maker_feed_connected')).not.toEqual([]);
    expect(byMetric('outcome_maker_book_age_seconds')).not.toEqual([]);
    expect(rules.some((r) => r.expr.includes('outcome_maker_http_requests_total{status="429"}'))).toBe(true);
    expect(byMetric('outcome_maker_kill_switch_engaged')).not.toEqual([]);
    expect(byMetric('outcome_maker_ledger_mismatches_total')).not.toEqual([]);
  });

  it('alerts when nothing was quoted for 10 minutes while markets were expected, on the gauge the bot exports in seconds', async () => {
    const rule = rules.find((r) => r.alert === 'OutcomeMakerNothingQuoted');
    expect(rule?.expr).toBe('max by (instance) (outcome_maker_nothing_quoted_seconds) > 600');
    const registry = new Registry();
    const metrics = createMetrics({ registry });
    const value = async (): Promise<number | undefined> => (await registry.getSingleMetric('outcome_maker_nothing_quoted_seconds')?.get())?.values[0]?.value;
    expect(await value()).toBe(0);
    metrics.nothingQuotedFor(600_500);
    expect(await value()).toBe(600.5);
    // A bad value is ignored: the gauge keeps the last good one.
    metrics.nothingQuotedFor(Number.NaN);
    metrics.nothingQuotedFor(-1);
    expect(await value()).toBe(600.5);
  });

  const promtool = spawnSync('promtool', ['--version']).status === 0;
  it.runIf(promtool)('passes promtool check rules', () => {
    expect(() => execFileSync('promtool', ['check', 'rules', alertsPath], { stdio: 'pipe' })).not.toThrow();
  });
});

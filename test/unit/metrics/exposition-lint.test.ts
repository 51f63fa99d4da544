import { describe, expect, it } from 'vitest';
import { lintExposition } from '../../../src/metrics/exposition-lint.js';

function texts(exposition: string): string[] {
  return lintExposition(exposition).map((p) => `${p.metric}: ${p.text}`);
}

const GOOD = `# HELP app_requests_total Requests.
# TYPE app_requests_total counter
app_requests_total{route="/a",code="200"} 3
app_requests_total{route="/a",code="500"} 1
# HELP app_temperature_celsius A gauge.
# TYPE app_temperature_celsius gauge
app_temperature_celsius NaN
# HELP app_latency_seconds A histogram.
# TYPE app_latency_seconds histogram
app_latency_seconds_bucket{le="0.1"} 1
app_latency_seconds_bucket{le="1"} 3
app_latency_seconds_bucket{le="+Inf"} 4
app_latency_seconds_sum 2.5
app_latency_seconds_count 4
`;

describe('lintExposition', () => {
  it('accepts a clean exposition', () => {
    expect(lintExposition(GOOD)).toEqual([]);
  });

  it('requires HELP and TYPE', () => {
    expect(texts('# TYPE a_total counter\na_total 1\nb 2\n')).toEqual(['a_total: no help text', 'b: no help text', 'b: no TYPE line']);
  });

  it('applies the counter suffix rules', () => {
    expect(texts('# HELP a x\n# TYPE a counter\na 1\n# HELP b_total x\n# TYPE b_total gauge\nb_total 1\n')).toEqual([
      'a: counter metrics should have "_total" suffix',
      'b_total: non-counter metrics should not have "_total" suffix',
    ]);
  });

  it('finds duplicate series and duplicate labels', () => {
    const problems = texts('# HELP a_total x\n# TYPE a_total counter\na_total{x="1",y="2"} 1\na_total{y="2",x="1"} 2\na_total{x="1",x="2"} 1\n');
    expect(problems).toContain('a_total: duplicate label name "x"');
    expect(problems.some((p) => p.startsWith('a_total: duplicate series'))).toBe(true);
  });

  it('rejects bad names, camelCase, colons, type names and unit problems', () => {
    const problems = texts(
      [
        '# HELP fooBar x', '# TYPE fooBar gauge', 'fooBar{someLabel="a"} 1',
        '# HELP a:b x', '# TYPE a:b gauge', 'a:b 1',
        '# HELP queue_gauge x', '# TYPE queue_gauge gauge', 'queue_gauge 1',
        '# HELP wait_ms x', '# TYPE wait_ms gauge', 'wait_ms 1',
        '# HELP uptime_hours x', '# TYPE uptime_hours gauge', 'uptime_hours 1',
        '# HELP size_kilobytes x', '# TYPE size_kilobytes gauge', 'size_kilobytes 1',
        '9bad 1',
      ].join('\n'),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        "fooBar: metric names should be written in 'snake_case' not 'camelCase'",
        "fooBar: label names should be written in 'snake_case' not 'camelCase'",
        "a:b: metric names should not contain ':'",
        "queue_gauge: metric name should not include type 'gauge'",
        'wait_ms: metric names should not contain abbreviated units',
        'uptime_hours: use base unit "seconds" instead of "hours"',
        'size_kilobytes: use base unit "bytes" instead of "kilobytes"',
        '9bad: invalid metric name',
      ]),
    );
  });

  it('reserves histogram and summary suffixes and labels', () => {
    expect(texts('# HELP x_bucket x\n# TYPE x_bucket gauge\nx_bucket{le="1"} 1\n')).toEqual([
      'x_bucket: non-histogram metrics should not have "_bucket" suffix',
      'x_bucket: non-histogram metrics should not have "le" label',
    ]);
    expect(texts('# HELP q x\n# TYPE q gauge\nq{quantile="0.5"} 1\n')).toEqual(['q: non-summary metrics should not have "quantile" label']);
  });

  it('checks histogram structure', () => {
    const problems = texts('# HELP h_seconds x\n# TYPE h_seconds histogram\nh_seconds_bucket{le="1"} 5\nh_seconds_bucket{le="2"} 3\nh_seconds_count 5\n');
    expect(problems).toEqual(
      expect.arrayContaining([
        'h_seconds: histogram h_seconds{} has no +Inf bucket',
        'h_seconds: histogram h_seconds{} buckets are not increasing',
        'h_seconds: histogram h_seconds{} has no _sum',
      ]),
    );
    expect(texts('# HELP h x\n# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n')).toEqual(['h: histogram h{} _count differs from its +Inf bucket']);
  });

  it('finds repeated metadata, split families and malformed samples', () => {
    const problems = texts(
      '# HELP a_total x\n# HELP a_total y\n# TYPE a_total counter\na_total 1\n# HELP b x\n# TYPE b gauge\nb 1\na_total{x="1"} 2\nb{x="unterminated} 1\nb{x="1"} abc\n',
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'a_total: second HELP line for metric name',
        'a_total: samples or metadata of this family are not grouped together',
        'b: unterminated label value',
        'b: invalid value "abc"',
      ]),
    );
  });
});

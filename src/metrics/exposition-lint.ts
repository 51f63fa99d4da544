/**
 * A checker for Prometheus text exposition, applying the rules `promtool check metrics` applies (its
 * parser plus client_golang's promlint), so the test suite can hold /metrics to them without promtool.
 *
 * Owns: parsing the text format (HELP, TYPE, samples with escaped label values) and reporting, per
 * family: missing HELP or TYPE, repeated HELP/TYPE, samples of a family split apart, invalid metric or
 * label names, duplicate series or labels, bad values, counters without `_total`, non-counters with it,
 * reserved suffixes and labels (`_bucket`, `_count`, `_sum`, `le`, `quantile`), the type in the name,
 * colons, camelCase, abbreviated or non-base units, and histograms without `+Inf`, with decreasing
 * buckets, or with `_count` unequal to the `+Inf` bucket. Pure function of the text.
 */

export interface ExpositionProblem {
  readonly metric: string;
  readonly text: string;
  /** 1-based line number when the problem belongs to one line. */
  readonly line?: number;
}

type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
const TYPES: readonly MetricType[] = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];

interface Sample {
  readonly name: string;
  readonly labels: ReadonlyMap<string, string>;
  readonly value: number;
  readonly line: number;
}

interface Family {
  readonly name: string;
  help: string | null;
  type: MetricType | null;
  typeLine: number;
  readonly samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const CAMEL = /[a-z][A-Z]/;

const BASE_UNITS: Readonly<Record<string, string>> = {
  amperes: 'amperes', bytes: 'bytes', celsius: 'celsius', grams: 'grams', joules: 'joules', kelvin: 'kelvin',
  meters: 'meters', metres: 'metres', seconds: 'seconds', volts: 'volts',
  minutes: 'seconds', hours: 'seconds', days: 'seconds', weeks: 'seconds',
  kelvins: 'kelvin', fahrenheit: 'celsius', rankine: 'celsius',
  inches: 'meters', yards: 'meters', miles: 'meters', bits: 'bytes', calories: 'joules', pounds: 'grams', ounces: 'grams',
};
const UNIT_PREFIXES = ['pico', 'nano', 'micro', 'milli', 'centi', 'deci', 'deca', 'hecto', 'kilo', 'kibi', 'mega', 'mibi', 'giga', 'gibi', 'tera', 'tebi', 'peta', 'pebi'];
const UNIT_ABBREVIATIONS = ['s', 'ms', 'us', 'ns', 'sec', 'b', 'kb', 'mb', 'gb', 'tb', 'pb', 'm', 'h', 'd'];
const TYPE_WORDS = ['counter', 'gauge', 'histogram', 'summary', 'gaugehistogram'];

/** Lint exposition text; an empty list means it passes. */
export function lintExposition(text: string): ExpositionProblem[] {
  const problems: ExpositionProblem[] = [];
  const families = new Map<string, Family>();
  const order: string[] = [];
  let current: string | null = null;
  const closed = new Set<string>();

  const family = (name: string): Family => {
    let found = families.get(name);
    if (!found) {
      found = { name, help: null, type: null, typeLine: 0, samples: [] };
      families.set(name, found);
      order.push(name);
    }
    return found;
  };
  const enter = (name: string, line: number): void => {
    if (current === name) return;
    if (current !== null) closed.add(current);
    if (closed.has(name)) problems.push({ metric: name, line, text: 'samples or metadata of this family are not grouped together' });
    current = name;
  };

  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const content = raw.trimEnd();
    if (content.trim() === '') return;
    if (content.startsWith('#')) {
      const meta = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s+(.*))?$/.exec(content);
      if (!meta) return; // a plain comment
      const [, keyword, name = '', rest = ''] = meta;
      if (!METRIC_NAME.test(name)) {
        problems.push({ metric: name, line, text: 'invalid metric name' });
        return;
      }
      enter(name, line);
      const f = family(name);
      if (keyword === 'HELP') {
        if (f.help !== null) problems.push({ metric: name, line, text: 'second HELP line for metric name' });
        f.help = rest;
      } else {
        if (f.type !== null) problems.push({ metric: name, line, text: 'second TYPE line for metric name' });
        if (f.samples.length > 0) problems.push({ metric: name, line, text: 'TYPE line after samples of the metric' });
        const type = TYPES.find((t) => t === rest.trim());
        if (type === undefined) problems.push({ metric: name, line, text: `unknown metric type ${JSON.stringify(rest.trim())}` });
        else {
          f.type = type;
          f.typeLine = line;
        }
      }
      return;
    }
    const sample = parseSample(content, line, problems);
    if (sample === null) return;
    const owner = familyOf(sample.name, families);
    enter(owner, line);
    family(owner).samples.push(sample);
  });

  for (const name of order) {
    const f = families.get(name);
    if (f) problems.push(...lintFamily(f));
  }
  return problems;
}

/** The family a sample belongs to: histogram/summary series carry suffixes on the family name. */
function familyOf(sampleName: string, families: ReadonlyMap<string, Family>): string {
  for (const suffix of ['_bucket', '_count', '_sum']) {
    if (!sampleName.endsWith(suffix)) continue;
    const base = sampleName.slice(0, -suffix.length);
    const type = families.get(base)?.type;
    if (type === 'histogram' || (type === 'summary' && suffix !== '_bucket')) return base;
  }
  return sampleName;
}

function parseSample(content: string, line: number, problems: ExpositionProblem[]): Sample | null {
  const head = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(content);
  if (!head?.[1]) {
    problems.push({ metric: content.split(/[\s{]/)[0] ?? '', line, text: 'invalid metric name' });
    return null;
  }
  const name = head[1];
  let rest = content.slice(name.length);
  const labels = new Map<string, string>();
  if (rest.startsWith('{')) {
    let i = 1;
    for (;;) {
      while (rest[i] === ' ') i += 1;
      if (rest[i] === '}') {
        i += 1;
        break;
      }
      const labelMatch = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(rest.slice(i));
      if (!labelMatch?.[1]) {
        problems.push({ metric: name, line, text: 'invalid label name or syntax' });
        return null;
      }
      const labelName = labelMatch[1];
      i += labelMatch[0].length;
      let value = '';
      for (;;) {
        const ch = rest[i];
        if (ch === undefined) {
          problems.push({ metric: name, line, text: 'unterminated label value' });
          return null;
        }
        if (ch === '\\') {
          const next = rest[i + 1];
          if (next === 'n') value += '\n';
          else if (next === '\\' || next === '"') value += next;
          else {
            problems.push({ metric: name, line, text: 'invalid escape sequence in label value' });
            return null;
          }
          i += 2;
          continue;
        }
        if (ch === '"') {
          i += 1;
          break;
        }
        value += ch;
        i += 1;
      }
      if (labels.has(labelName)) problems.push({ metric: name, line, text: `duplicate label name ${JSON.stringify(labelName)}` });
      if (labelName.startsWith('__')) problems.push({ metric: name, line, text: `label name ${JSON.stringify(labelName)} is reserved` });
      labels.set(labelName, value);
      while (rest[i] === ' ') i += 1;
      if (rest[i] === ',') i += 1;
      else if (rest[i] !== '}') {
        problems.push({ metric: name, line, text: 'expected , or } after a label' });
        return null;
      }
    }
    rest = rest.slice(i);
  }
  const fields = rest.trim().split(/\s+/);
  if (fields.length < 1 || fields.length > 2 || fields[0] === '') {
    problems.push({ metric: name, line, text: 'expected a value (and optionally a timestamp) after the series' });
    return null;
  }
  const value = parseValue(fields[0] ?? '');
  if (value === null) {
    problems.push({ metric: name, line, text: `invalid value ${JSON.stringify(fields[0])}` });
    return null;
  }
  if (fields[1] !== undefined && !/^-?[0-9]+$/.test(fields[1])) problems.push({ metric: name, line, text: `invalid timestamp ${JSON.stringify(fields[1])}` });
  return { name, labels, value, line };
}

function parseValue(text: string): number | null {
  // Go's strconv.ParseFloat, which promtool uses, takes NaN and Inf in any case (prom-client prints "Nan").
  if (/^[+]?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/.test(text)) return null;
  return Number(text);
}

function seriesKey(sample: Sample, without?: string): string {
  const pairs = [...sample.labels.entries()].filter(([k]) => k !== without).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${sample.name}{${pairs.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}}`;
}

function lintFamily(f: Family): ExpositionProblem[] {
  const problems: ExpositionProblem[] = [];
  const add = (text: string, line?: number): void => {
    problems.push(line === undefined ? { metric: f.name, text } : { metric: f.name, text, line });
  };
  const name = f.name;
  const lower = name.toLowerCase();
  const type = f.type ?? 'untyped';

  if (f.help === null) add('no help text');
  if (f.type === null) add('no TYPE line');

  // Series.
  const seen = new Set<string>();
  for (const sample of f.samples) {
    const key = seriesKey(sample);
    if (seen.has(key)) add(`duplicate series ${key}`, sample.line);
    seen.add(key);
    for (const label of sample.labels.keys()) {
      if (!LABEL_NAME.test(label)) add(`invalid label name ${JSON.stringify(label)}`, sample.line);
    }
  }

  // promlint.
  const hasTotal = name.endsWith('_total');
  if (type === 'counter' && !hasTotal) add('counter metrics should have "_total" suffix');
  if (type !== 'untyped' && type !== 'counter' && hasTotal) add('non-counter metrics should not have "_total" suffix');
  if (type !== 'untyped') {
    if (type !== 'histogram' && name.endsWith('_bucket')) add('non-histogram metrics should not have "_bucket" suffix');
    if (type !== 'histogram' && type !== 'summary' && name.endsWith('_count')) add('non-histogram and non-summary metrics should not have "_count" suffix');
    if (type !== 'histogram' && type !== 'summary' && name.endsWith('_sum')) add('non-histogram and non-summary metrics should not have "_sum" suffix');
    const labelNames = new Set(f.samples.flatMap((s) => [...s.labels.keys()]));
    if (type !== 'histogram' && labelNames.has('le')) add('non-histogram metrics should not have "le" label');
    if (type !== 'summary' && labelNames.has('quantile')) add('non-summary metrics should not have "quantile" label');
  }
  if (type !== 'untyped' && type !== 'gauge' && name.endsWith('_timestamp_seconds')) add('non-gauge metrics should not have "_timestamp_seconds" suffix');
  for (const word of TYPE_WORDS) {
    if (lower.includes(`_${word}_`) || lower.endsWith(`_${word}`)) add(`metric name should not include type '${word}'`);
  }
  if (name.includes(':')) add("metric names should not contain ':'");
  if (CAMEL.test(name)) add("metric names should be written in 'snake_case' not 'camelCase'");
  if (f.samples.some((s) => [...s.labels.keys()].some((label) => CAMEL.test(label)))) add("label names should be written in 'snake_case' not 'camelCase'");
  for (const abbreviation of UNIT_ABBREVIATIONS) {
    if (lower.includes(`_${abbreviation}_`) || lower.endsWith(`_${abbreviation}`)) {
      add('metric names should not contain abbreviated units');
      break;
    }
  }
  const unit = unitOf(name);
  if (unit !== null && unit.unit !== unit.base) add(`use base unit "${unit.base}" instead of "${unit.unit}"`);

  if (type === 'histogram') problems.push(...lintHistogram(f));
  return problems;
}

function unitOf(name: string): { unit: string; base: string } | null {
  for (const part of name.split('_')) {
    for (const prefix of ['', ...UNIT_PREFIXES]) {
      if (!part.startsWith(prefix)) continue;
      const base = BASE_UNITS[part.slice(prefix.length)];
      if (base !== undefined) return { unit: part, base };
    }
  }
  return null;
}

function lintHistogram(f: Family): ExpositionProblem[] {
  const problems: ExpositionProblem[] = [];
  const series = new Map<string, { buckets: { le: number; count: number; line: number }[]; count: number | null; sum: boolean }>();
  const entry = (key: string) => {
    let found = series.get(key);
    if (!found) {
      found = { buckets: [], count: null, sum: false };
      series.set(key, found);
    }
    return found;
  };
  for (const sample of f.samples) {
    const suffix = sample.name.slice(f.name.length);
    const key = seriesKey({ ...sample, name: f.name }, 'le');
    if (suffix === '_bucket') {
      const le = sample.labels.get('le');
      const bound = le === undefined ? null : parseValue(le);
      if (bound === null || Number.isNaN(bound)) problems.push({ metric: f.name, line: sample.line, text: 'bucket without a valid "le" label' });
      else entry(key).buckets.push({ le: bound, count: sample.value, line: sample.line });
    } else if (suffix === '_count') entry(key).count = sample.value;
    else if (suffix === '_sum') entry(key).sum = true;
    else problems.push({ metric: f.name, line: sample.line, text: `unexpected histogram sample ${sample.name}` });
  }
  for (const [key, s] of series) {
    const inf = s.buckets.find((b) => b.le === Infinity);
    if (!inf) problems.push({ metric: f.name, text: `histogram ${key} has no +Inf bucket` });
    for (let i = 1; i < s.buckets.length; i += 1) {
      const prev = s.buckets[i - 1];
      const cur = s.buckets[i];
      if (prev && cur && (cur.le <= prev.le || cur.count < prev.count)) problems.push({ metric: f.name, line: cur.line, text: `histogram ${key} buckets are not increasing` });
    }
    if (s.count === null) problems.push({ metric: f.name, text: `histogram ${key} has no _count` });
    else if (inf && inf.count !== s.count) problems.push({ metric: f.name, text: `histogram ${key} _count differs from its +Inf bucket` });
    if (!s.sum) problems.push({ metric: f.name, text: `histogram ${key} has no _sum` });
  }
  return problems;
}

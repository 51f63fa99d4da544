/**
 * The answers recorded from the live venue: the directory named by VENUE_SAMPLES_DIR, else ../shared/venue-samples
 * beside the repository (as CI clones it: the newest recordings), else the copy kept in test/fixtures/venue-samples
 * (so a clone on its own still runs the contract suite). Owns: locating and reading them. Invariant: a missing or empty sample file
 * fails loudly, naming the path looked at — a contract suite that silently checks nothing would prove nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The samples directory: VENUE_SAMPLES_DIR, else <repo>/../shared/venue-samples, else the repository's copy. */
export function samplesDir(): string {
  const fromEnv = process.env['VENUE_SAMPLES_DIR'];
  if (fromEnv !== undefined && fromEnv !== '') {
    const dir = resolve(fromEnv);
    if (!existsSync(dir)) throw new Error(`venue samples not found at ${dir} (VENUE_SAMPLES_DIR)`);
    return dir;
  }
  const shared = resolve(REPO_ROOT, '..', 'shared', 'venue-samples');
  if (existsSync(shared)) return shared;
  const vendored = resolve(REPO_ROOT, 'test', 'fixtures', 'venue-samples');
  if (!existsSync(vendored)) throw new Error(`venue samples not found at ${shared} nor ${vendored}: set VENUE_SAMPLES_DIR`);
  return vendored;
}

/** One recorded answer: `request` is e.g. "GET /markets/{slug}/orderbook". */
export interface Recording {
  readonly capturedAt: string;
  readonly request: string;
  readonly status: number | null;
  readonly body: unknown;
  /** 1-based line in its file, for messages. */
  readonly line: number;
}

function readJsonl(file: string): Recording[] {
  const path = resolve(samplesDir(), file);
  if (!existsSync(path)) throw new Error(`venue sample file missing: ${path}`);
  const records: Recording[] = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (text.trim() === '') return;
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || !('body' in parsed) || !('request' in parsed)) {
        throw new Error(`${path}:${index + 1}: not a recording (needs request and body)`);
      }
      const capturedAt: unknown = Reflect.get(parsed, 'capturedAt');
      const request: unknown = Reflect.get(parsed, 'request');
      const status: unknown = Reflect.get(parsed, 'status');
      const body: unknown = Reflect.get(parsed, 'body');
      records.push({
        capturedAt: typeof capturedAt === 'string' ? capturedAt : '',
        request: typeof request === 'string' ? request : '',
        status: typeof status === 'number' ? status : null,
        body,
        line: index + 1,
      });
    });
  if (records.length === 0) throw new Error(`venue sample file is empty: ${path}`);
  return records;
}

/** The recorded GET /markets/{slug}/orderbook answers, with the slug of each. */
export function orderbookRecordings(): (Recording & { readonly slug: string })[] {
  return readJsonl('rest-orderbook.jsonl').map((record) => {
    const match = /^GET \/markets\/([^/]+)\/orderbook$/.exec(record.request);
    if (!match?.[1]) throw new Error(`rest-orderbook.jsonl:${record.line}: unexpected request ${record.request}`);
    return { ...record, slug: decodeURIComponent(match[1]) };
  });
}

/** The recorded elements of GET /markets/active's `data`. */
export function activeMarketRecordings(): Recording[] {
  return readJsonl('rest-markets-active-items.jsonl');
}

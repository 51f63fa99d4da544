/**
 * The `price` command's flags and files → its lines (the CLI's action is a thin call of `runPrice`). Two modes:
 * `--markets M` alone or with `--spot --vol --at` (./price-command.ts), and `--markets M --books B --underlying U…`
 * (./price-books.ts: every recorded book priced as the bot would have at its instant, with the volatility surface).
 *
 * Owns: the flags' checks and the reading of the files. Invariants: every flag is checked before any file is read
 * (a PriceUsageError names the flag and the value, exit 2); a file that cannot be read is a usage error naming it;
 * the two modes do not mix (`--books` with `--spot`/`--vol`/`--at` is refused); `--books` needs `--underlying`.
 */
import { readFileSync } from 'node:fs';
import { errorText } from '../core/errors.js';
import { readReplay } from '../replay/reader.js';
import { DEFAULT_PRICER_SETTINGS } from './market-pricer.js';
import { priceRecordedBooks, recordingSettings, type RecordedPrice } from './price-books.js';
import { DEFAULT_PYTH_FEED_IDS, parseAt, parseSpot, parseVol, PriceUsageError, priceLines } from './price-command.js';
import { DEFAULT_SURFACE, makeProfile, DEFAULT_HOURLY_VARIANCE } from './surface/index.js';

export interface PriceFlags {
  readonly markets: string;
  readonly spot?: string;
  readonly vol?: string;
  readonly at?: string;
  readonly books?: string;
  readonly underlying?: readonly string[];
  readonly impliedWeight?: string;
  readonly profileStrength?: string;
  readonly fitTails?: boolean;
  readonly staleSec?: string;
  readonly minStrikes?: string;
}

function fraction(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new PriceUsageError(flag, text, 'expected a number from 0 to 1');
  return n;
}

function readText(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new PriceUsageError(flag, path, `cannot read the file: ${errorText(error)}`);
  }
}

/** The underlying prices of `import underlying` streams (every `underlying` event of each). */
function readUnderlying(paths: readonly string[]): RecordedPrice[] {
  return paths.flatMap((path) => {
    let stream;
    try {
      stream = readReplay(path);
    } catch (error) {
      throw new PriceUsageError('--underlying', path, `not a readable underlying stream (made by \`import underlying\`): ${errorText(error)}`);
    }
    return stream.events.flatMap((e) => (e.kind === 'underlying' ? [{ ticker: e.ticker, atMs: e.t, price: e.price }] : []));
  });
}

/** The lines `price` prints and how many input lines failed. Throws PriceUsageError (exit 2) before printing anything. */
export function runPrice(flags: PriceFlags, nowMs: number): { readonly lines: readonly string[]; readonly failed: number; readonly errors?: readonly string[]; readonly summary?: string } {
  if (flags.books !== undefined) return runBooks(flags);
  for (const flag of ['underlying', 'impliedWeight', 'profileStrength', 'staleSec', 'minStrikes'] as const) {
    if (flags[flag] !== undefined) throw new PriceUsageError(`--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, String(flags[flag]), 'applies to recorded books only: give --books');
  }
  const options = {
    spot: flags.spot === undefined ? null : parseSpot(flags.spot),
    vol: flags.vol === undefined ? null : parseVol(flags.vol),
    atMs: flags.at === undefined ? nowMs : parseAt(flags.at),
    feedIds: DEFAULT_PYTH_FEED_IDS,
  };
  if ((options.spot === null) !== (options.vol === null)) throw new PriceUsageError(options.spot === null ? '--spot' : '--vol', '', 'give --spot and --vol together to price');
  return priceLines(readText('--markets', flags.markets), flags.markets, options);
}

function runBooks(flags: PriceFlags): { readonly lines: readonly string[]; readonly failed: number; readonly errors: readonly string[]; readonly summary: string } {
  for (const flag of ['spot', 'vol', 'at'] as const) {
    if (flags[flag] !== undefined) throw new PriceUsageError(`--${flag}`, String(flags[flag]), 'does not apply to recorded books (each is priced at its capture time from the recorded underlying)');
  }
  const paths = flags.underlying ?? [];
  if (paths.length === 0) throw new PriceUsageError('--underlying', '', 'recorded books need the underlying: give --underlying with one or more streams made by `import underlying`');
  const impliedWeight = fraction('--implied-weight', flags.impliedWeight, DEFAULT_SURFACE.impliedWeight);
  const strength = fraction('--profile-strength', flags.profileStrength, 1);
  const staleSec = flags.staleSec === undefined ? 90 : Number(flags.staleSec);
  if (!(staleSec > 0 && staleSec <= 3600)) throw new PriceUsageError('--stale-sec', String(flags.staleSec), 'expected seconds, more than 0 and at most 3600');
  const minStrikes = flags.minStrikes === undefined ? DEFAULT_SURFACE.evidence.minStrikes : Number(flags.minStrikes);
  if (!(Number.isInteger(minStrikes) && minStrikes >= 1 && minStrikes <= 100)) throw new PriceUsageError('--min-strikes', String(flags.minStrikes), 'expected a whole number of strikes from 1 to 100');
  const surface = {
    ...DEFAULT_SURFACE,
    impliedWeight,
    evidence: { ...DEFAULT_SURFACE.evidence, minStrikes },
    profile: makeProfile(DEFAULT_HOURLY_VARIANCE, strength),
    tailFit: flags.fitTails === true ? { minDof: 3, maxDof: 50, refitEveryMs: 30_000 } : null,
  };
  const marketsText = readText('--markets', flags.markets);
  const booksText = readText('--books', flags.books ?? '');
  const underlying = readUnderlying(paths);
  const settings = recordingSettings({ ...DEFAULT_PRICER_SETTINGS, surface }, staleSec * 1000);
  return priceRecordedBooks(marketsText, flags.markets, booksText, flags.books ?? '', underlying, { feedIds: DEFAULT_PYTH_FEED_IDS, settings });
}

export { PriceUsageError };

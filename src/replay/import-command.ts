/**
 * `outcome-maker import polymarket`: reads Polymarket recordings (src/replay/polymarket.ts says the format), writes
 * one replay stream file and prints what it imported as one JSON line.
 *
 * Owns: file reading and the header of an imported stream. Invariants: nothing is written when any input is
 * unreadable or invalid (the error names the file, the record and the field); the header says the source and
 * the units.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { errorText } from '../core/errors.js';
import { REPLAY_FORMAT, REPLAY_UNITS, REPLAY_VERSION } from './format.js';
import { ImportError, importPolymarket, POLYMARKET_TICK_TICKS, type ImportReport } from './polymarket.js';
import { outcomeMakerVersion } from './version.js';
import { writeReplayFile } from './writer.js';

export interface ImportPolymarketArgs {
  readonly books: string;
  readonly trades: string;
  readonly booksOther?: string;
  readonly tradesOther?: string;
  readonly out: string;
  /** Default: the books file's name without `-up`/`-books` and `.json`. */
  readonly market?: string;
  /** Stamped into the header (tests pin it). */
  readonly nowMs?: number;
}

function readJson(path: string): { readonly name: string; readonly data: unknown } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ImportError(path, null, `cannot read: ${errorText(error)}`);
  }
  try {
    return { name: basename(path), data: JSON.parse(text) };
  } catch (error) {
    throw new ImportError(path, null, `not JSON: ${errorText(error)}`);
  }
}

/** `polymarket-sol-updown-15m-up-books.json` → `polymarket-sol-updown-15m`. */
export function marketNameOf(booksPath: string): string {
  return basename(booksPath)
    .replace(/\.json$/i, '')
    .replace(/[-_]books$/i, '')
    .replace(/[-_](up|yes)$/i, '')
    .toLowerCase();
}

export function importPolymarketFiles(args: ImportPolymarketArgs): ImportReport & { readonly out: string; readonly market: string } {
  const market = args.market ?? marketNameOf(args.books);
  const { events, report } = importPolymarket(
    {
      books: readJson(args.books),
      trades: readJson(args.trades),
      ...(args.booksOther === undefined ? {} : { booksOther: readJson(args.booksOther) }),
      ...(args.tradesOther === undefined ? {} : { tradesOther: readJson(args.tradesOther) }),
    },
    market,
  );
  writeReplayFile(
    args.out,
    {
      kind: 'header',
      format: REPLAY_FORMAT,
      version: REPLAY_VERSION,
      venue: { name: 'polymarket', baseUrl: null },
      source: { tool: 'import:polymarket', version: outcomeMakerVersion() },
      units: REPLAY_UNITS,
      markets: [{ slug: market, yesTokenId: null, noTokenId: null, tickTicks: POLYMARKET_TICK_TICKS }],
      createdAtMs: args.nowMs ?? Date.now(),
    },
    events,
  );
  return { ...report, out: args.out, market };
}

/**
 * The id of one part of a settlement. One SETTLEMENT frame (one venue `tradeEventId`) can fill the same order more
 * than once (a taker crossing several levels of the bot's orders); the executor reports each as its own fill, and
 * the ledger keys fills by (part id, order id). Part 1 is the trade event id itself (so a one-part settlement keeps
 * the venue's id, and ledgers written before this module read the same); part n ≥ 2 is `<tradeEventId>/<n>`.
 *
 * Owns: the part-id text, built by `formatFillPartId` and read back by `parseFillPartId`, here and nowhere else (the
 * executor formats it when it splits a settlement; the fill recorder parses it to find the economics reported for
 * the whole trade event). Invariants: parse(format(id, n)) = {id, n} for every n ≥ 1 and every trade event id not
 * itself ending in `/<digits>` (the venue's ids are UUIDs and hashes); a text that is not a part id reads as part 1 of
 * itself.
 */

/** A fill part: the venue's trade event id and the 1-based index of this order's fill within it. */
export interface FillPart {
  readonly tradeEventId: string;
  readonly part: number;
}

/** The text of a part id (the `tradeEventId` the executor reports and the ledger keys on). */
export type FillPartId = string & { readonly __brand: 'FillPartId' };

const PART_SUFFIX = /^(.+)\/([1-9]\d*)$/;

export class FillPartIdError extends Error {
  override readonly name = 'FillPartIdError';
  constructor(
    readonly field: 'part',
    readonly value: unknown,
    reason: string,
  ) {
    super(`fill part id: ${field} ${JSON.stringify(value)} ${reason}`);
  }
}

/** The part id of fill `part` (1-based) of trade event `tradeEventId`. */
export function formatFillPartId(tradeEventId: string, part: number): FillPartId {
  if (!Number.isSafeInteger(part) || part < 1) throw new FillPartIdError('part', part, 'is not an integer ≥ 1');
  return (part === 1 ? tradeEventId : `${tradeEventId}/${part}`) as FillPartId;
}

/** Reads a part id back: its trade event id and part index (part 1 for a plain trade event id). */
export function parseFillPartId(id: string): FillPart {
  const match = PART_SUFFIX.exec(id);
  if (match === null) return { tradeEventId: id, part: 1 };
  const part = Number(match[2]);
  return part >= 2 && Number.isSafeInteger(part) ? { tradeEventId: match[1]!, part } : { tradeEventId: id, part: 1 };
}

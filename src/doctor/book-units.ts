/**
 * The verdict on the unit of the socket feed's book sizes (exchange-facts §5 leaves it unconfirmed; the REST book is
 * raw 1e6 integers on the live venue). The evidence is the bot's own: each market's first socket book, read both
 * ways, compared with its REST book by `bookUnitFromEvidence` (src/book/size-units.ts): sizes equal → raw, exactly
 * 1e6 apart → shares, a book that moved between the two reads → not settled.
 *
 * Owns: judging what was found against `venue.units.socketBookSize` (pure). Invariant: a configured unit that
 * differs from the evidence is a failure (every socket book would be 1e6 off); `auto` is never a failure here (the
 * bot settles it from the same evidence), only a warning while nothing settled it, because until then it quotes
 * nothing.
 */
import type { SizeUnit, UnitSetting } from '../book/size-units.js';
import { check, type CheckResult } from './types.js';

export interface MarketUnit {
  readonly slug: string;
  /** The unit the evidence settled, or null with the reason. */
  readonly unit: SizeUnit | null;
  readonly reason?: string;
}

export function bookUnitsVerdict(markets: readonly MarketUnit[], setting: UnitSetting): CheckResult {
  const title = 'socket book size unit';
  const settled = markets.filter((m): m is MarketUnit & { unit: SizeUnit } => m.unit !== null);
  const open = markets.filter((m) => m.unit === null).map((m) => `${m.slug}: ${m.reason ?? 'not settled'}`);
  const units = [...new Set(settled.map((s) => s.unit))];
  const data = { setting, settled: settled.map((s) => ({ slug: s.slug, unit: s.unit })), notSettled: open };
  const configured = '`venue.units.socketBookSize`';
  if (units.length > 1) {
    return check('book-units', title, 'fail', `the socket sent sizes in different units for different markets (${settled.map((s) => `${s.slug}: ${s.unit}`).join(', ')})`, 'report it to the venue; set the unit per what the markets you trade send', data);
  }
  const found = units[0];
  if (found === undefined) {
    const why = open.join('; ') || 'no market to compare';
    return setting === 'auto'
      ? check('book-units', title, 'warn', `not settled (${why}); with ${configured}: auto the bot quotes nothing until a socket book matches its REST book`, 'run doctor again when the markets have resting orders, or set the unit once it is known', data)
      : check('book-units', title, 'warn', `not verified (${why}); ${configured} is ${setting}`, 'run doctor again when the markets have resting orders', data);
  }
  const where = settled.map((s) => s.slug).join(', ');
  const partial = open.length > 0 ? `; not settled: ${open.join('; ')}` : '';
  if (setting !== 'auto' && setting !== found) {
    return check('book-units', title, 'fail', `the socket sends sizes in ${found} (${where}), the config reads them as ${setting}: every socket book would be 1e6 off`, `set ${configured}: ${found} (or auto)`, data);
  }
  const how = setting === 'auto' ? `${configured}: auto settles on it` : `as ${configured} says`;
  return check('book-units', title, 'pass', `the socket sends sizes in ${found} (${where}), ${how}${partial}`, undefined, data);
}

/**
 * Third-party recordings the tests may read but the project does not ship (a Polymarket recording whose source gives
 * no licence, an exchange's klines): they live beside the clone, in `../shared/replay-samples/` (CI keeps a copy of
 * shared/ there), never in the repository. `OM_REPLAY_SAMPLES` names another folder.
 *
 * A test that needs them runs only when they are there, and otherwise is reported as skipped with a title that says
 * where the files were looked for (`samplesTitle`).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Where the samples are looked for: `$OM_REPLAY_SAMPLES`, else `../shared/replay-samples` beside the clone. */
export const REPLAY_SAMPLES_DIR = resolve(process.env['OM_REPLAY_SAMPLES'] ?? join(ROOT, '..', 'shared', 'replay-samples'));

/** The stem of the Polymarket "SOL up or down" sample: `<stem>-up-books.json`, `-up-trades.json`, `-down-…`. */
export const POLYMARKET_SOL_STEM = join(REPLAY_SAMPLES_DIR, 'polymarket-sol-updown-15m');

/** Whether the Polymarket sample is there (all four files). */
export const POLYMARKET_SAMPLE_PRESENT = ['up-books', 'up-trades', 'down-books', 'down-trades'].every((part) => existsSync(`${POLYMARKET_SOL_STEM}-${part}.json`));

/** A describe title that, when the samples are absent, says so and where they were looked for (also on stderr). */
export function samplesTitle(title: string): string {
  if (POLYMARKET_SAMPLE_PRESENT) return title;
  const skipped = `${title} — SKIPPED: the third-party Polymarket sample is not in ${REPLAY_SAMPLES_DIR} (it lives beside the clone, not in it; set OM_REPLAY_SAMPLES to its folder)`;
  process.stderr.write(`${skipped}\n`);
  return skipped;
}

/**
 * `outcome-maker status --config FILE`: what the running bot of that config says of itself, read from its operations
 * endpoint (`GET /status`, found through the control file beside its ledger): the status line, then every traded
 * market with no order of the bot and why (no book yet, pricing halted near settlement, a risk limit, …), and the next
 * market expected to be joined and when (between two ladders: "no market traded now", never "every market has an order").
 *
 * Owns: the text printed (`formatStatus`, pure) from the answer (validated). Invariants: a bot that is not running, or
 * an answer of another shape, is a clear one-line error, never a stack trace.
 */
import { z } from 'zod';

const statusAnswer = z.object({
  message: z.string(),
  fields: z.looseObject({
    markets: z.number().optional(),
    unquoted: z.record(z.string(), z.string()).optional(),
    nextJoin: z.object({ market: z.string(), inSec: z.number(), at: z.string() }).nullable().optional(),
  }),
});

export type StatusAnswer = z.infer<typeof statusAnswer>;

/** The answer read as a status, or null when it is not one. */
export function parseStatusAnswer(body: unknown): StatusAnswer | null {
  const parsed = statusAnswer.safeParse(body);
  return parsed.success ? parsed.data : null;
}

/** The status line, then one line per unquoted market with its reason. Pure. */
export function formatStatus(answer: StatusAnswer): string {
  const unquoted = Object.entries(answer.fields.unquoted ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const lines = [answer.message.replace(/^status: /, '')];
  const next = answer.fields.nextJoin;
  if (answer.fields.markets === 0) lines.push('no market traded now');
  else if (unquoted.length === 0) lines.push('every traded market has an order of the bot');
  else {
    lines.push(`not quoted (${unquoted.length}):`);
    for (const [slug, reason] of unquoted) lines.push(`  ${slug}: ${reason}`);
  }
  if (next !== undefined) lines.push(next === null ? 'next join: none expected among the listed markets (waiting for new listings)' : `next join: ${next.market} in ${next.inSec} s (${next.at})`);
  return `${lines.join('\n')}\n`;
}

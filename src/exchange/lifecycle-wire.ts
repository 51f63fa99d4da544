/**
 * The venue's market lifecycle channel (`subscribe_market_lifecycle`, exchange-facts §5; official client 1.1.0
 * `MarketCreatedEvent`): `marketCreated {slug, title, type: "AMM"|"CLOB", groupSlug?, categoryIds?, createdAt}`.
 * Its `marketResolved` shares the event name and shape of the market-price channel's (socket-wire.ts).
 *
 * Owns: the wire format of `marketCreated` and its typed output. Invariants: a parse returns a fully typed frame or a
 * failure naming the field; unknown extra fields are ignored; `type` is upper-cased and only AMM or CLOB pass (an AMM
 * market is announced too: the caller decides what it trades).
 */
import { z } from 'zod';
import { timestampMs } from './frame-time.js';

export interface MarketCreatedFrame {
  readonly slug: string;
  readonly title: string;
  readonly type: 'AMM' | 'CLOB';
  readonly groupSlug: string | null;
  readonly categoryIds: readonly number[];
  /** Null when the venue sent none. */
  readonly createdAtMs: number | null;
}

export const marketCreatedSchema = z
  .object({
    slug: z.string().min(1),
    title: z.string(),
    type: z.string().transform((value, ctx): 'AMM' | 'CLOB' => {
      const upper = value.trim().toUpperCase();
      if (upper === 'AMM' || upper === 'CLOB') return upper;
      ctx.addIssue({ code: 'custom', message: 'must be AMM or CLOB' });
      return z.NEVER;
    }),
    groupSlug: z.string().min(1).nullable().optional(),
    categoryIds: z.array(z.int()).nullable().optional(),
    createdAt: timestampMs,
  })
  .transform(
    (f): MarketCreatedFrame => ({
      slug: f.slug,
      title: f.title,
      type: f.type,
      groupSlug: f.groupSlug ?? null,
      categoryIds: f.categoryIds ?? [],
      createdAtMs: f.createdAt,
    }),
  );

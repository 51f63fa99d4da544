/**
 * The request classes of an account's rate limiter and the order they start in: sweep > cancel > probe > place > read,
 * FIFO within a class (docs/rate-limits.md, "Headroom for what keeps the bot safe"). `sweep` is the shutdown sweep's
 * cancels across markets (every order of the bot, 50 ids a request) and its confirming lookups: ahead of the plans' own
 * cancels and lookups still queued. One definition for every queue that
 * stands for the account's limit: the bot's limiter (src/exchange/limiter.ts) and the backtest's request model
 * (src/backtest/request-pipe.ts). Which venue call goes in which class: src/orders/request-class.ts.
 *
 * Invariants: PRIORITY_ORDER lists every class once, most urgent first; `priorityRank` is its index (0 = first).
 */

export type RequestPriority = 'sweep' | 'cancel' | 'probe' | 'place' | 'read';

/** Start order of the request classes. */
export const PRIORITY_ORDER: readonly RequestPriority[] = ['sweep', 'cancel', 'probe', 'place', 'read'];

const RANK: Readonly<Record<RequestPriority, number>> = { sweep: 0, cancel: 1, probe: 2, place: 3, read: 4 };

/** 0 for the class that starts first, 4 for the last. */
export function priorityRank(priority: RequestPriority): number {
  return RANK[priority];
}

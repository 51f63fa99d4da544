/**
 * Raw order events as received (OME and SETTLEMENT frames, POST /orders answers), unique by eventId:
 * the same event twice is a no-op. Kept for audit and replay; positions never read them.
 */
import type { LedgerContext } from './context.js';
import { checkId, checkTimeMs, payloadJson } from './validate.js';

export class EventsRepo {
  private readonly insert;
  private readonly exists;

  constructor(private readonly ctx: LedgerContext) {
    this.insert = ctx.db.prepare(
      `INSERT OR IGNORE INTO order_events (event_id, kind, payload, received_at_ms) VALUES (?, ?, ?, ?)`,
    );
    this.exists = ctx.db.prepare(`SELECT 1 FROM order_events WHERE event_id = ?`);
  }

  /** Stores the event; returns true when it is new, false for a repeat (nothing written). */
  record(eventId: string, kind: string, payload: unknown, receivedAtMs?: number): boolean {
    const id = checkId('event.eventId', eventId);
    const eventKind = checkId('event.kind', kind);
    const json = payloadJson('event.payload', payload);
    const at = receivedAtMs === undefined ? this.ctx.now() : checkTimeMs('event.receivedAtMs', receivedAtMs);
    const isNew = this.ctx.write('recordEvent', () => this.insert.run(id, eventKind, json, at).changes === 1);
    this.ctx.notify((observer) => observer.onEvent?.(eventKind, isNew));
    return isNew;
  }

  has(eventId: string): boolean {
    return this.exists.get(eventId) !== undefined;
  }
}

/**
 * A small key/value table for ledger-wide facts such as the last reconciliation time.
 * Values are text; callers own their encoding.
 */
import type { LedgerContext } from './context.js';
import { z } from 'zod';
import { checkId } from './validate.js';
import { LedgerInputError } from './errors.js';

export const KV_LAST_RECONCILIATION = 'reconcile.lastAtMs';

const valueRowSchema = z.object({ value: z.string(), updated_at_ms: z.number().int() });

export class KvRepo {
  private readonly select;
  private readonly upsert;

  constructor(private readonly ctx: LedgerContext) {
    this.select = ctx.db.prepare(`SELECT value, updated_at_ms FROM kv WHERE key = ?`);
    this.upsert = ctx.db.prepare(
      `INSERT INTO kv (key, value, updated_at_ms) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at_ms = excluded.updated_at_ms`,
    );
  }

  get(key: string): string | null {
    const row = this.select.get(checkId('kv.key', key));
    return row === undefined ? null : valueRowSchema.parse(row).value;
  }

  set(key: string, value: string): void {
    const checkedKey = checkId('kv.key', key);
    if (typeof value !== 'string') throw new LedgerInputError('kv.value', value, 'must be a string');
    this.ctx.write('setKv', () => this.upsert.run(checkedKey, value, this.ctx.now()));
  }
}

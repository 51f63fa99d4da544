import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { componentLogger, createLogger, LogCensor, PUBLIC_HASH_KEYS, REDACT_PATHS } from '../../../src/log.js';

const PRIVATE_KEY = `0x${'ab'.repeat(32)}`;
const TX_HASH = `0x${'cd'.repeat(32)}`;
const record = z.record(z.string(), z.unknown());
const API_SECRET = Buffer.from('an-api-secret-for-tests').toString('base64');

function capture(options: { level?: 'info' | 'debug'; censor?: LogCensor; pretty?: boolean } = {}) {
  const lines: string[] = [];
  const logger = createLogger({ pretty: options.pretty ?? false, isTty: false, level: options.level ?? 'info', destination: { write: (line) => lines.push(line) }, ...(options.censor ? { censor: options.censor } : {}) });
  const records = (): Record<string, unknown>[] => lines.join('').trim().split('\n').filter(Boolean).map((line) => record.parse(JSON.parse(line)));
  return { logger, lines, records };
}

describe('createLogger', () => {
  it('writes JSON lines with level label, ISO time and message', () => {
    const { logger, records } = capture();
    logger.info({ market: 'm-1' }, 'quoting started');
    const [record] = records();
    expect(record).toMatchObject({ level: 'info', market: 'm-1', msg: 'quoting started' });
    expect(String(record?.['time'])).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('respects the level (no debug lines at info)', () => {
    const { logger, records } = capture({ level: 'info' });
    logger.debug({ market: 'm' }, 'book update');
    logger.warn('careful');
    expect(records().map((r) => r['msg'])).toEqual(['careful']);
  });

  it('child loggers carry the component and the market', () => {
    const { logger, records } = capture();
    componentLogger(logger, 'orders', { market: 'btc-up' }).info('placed');
    expect(records()[0]).toMatchObject({ component: 'orders', market: 'btc-up', msg: 'placed' });
  });

  it('redacts secret fields by path (any value type) and by key name at any depth (strings)', () => {
    const { logger, lines, records } = capture();
    logger.info(
      {
        privateKey: 'pk-value-1',
        cfg: { apiSecret: 'sec-value-2', signature: { r: 'r-value-5', s: 's-value-6' } },
        req: { order: { signature: 'sig-value-3' }, auth: { clientSecret: 'cs-value-7' } },
        authorization: 'Bearer tok-value-4',
        signatureType: 0,
      },
      'x',
    );
    const text = lines.join('');
    for (const value of ['pk-value-1', 'sec-value-2', 'sig-value-3', 'tok-value-4', 'r-value-5', 's-value-6', 'cs-value-7']) expect(text).not.toContain(value);
    expect(records()[0]?.['signatureType']).toBe(0);
    expect(REDACT_PATHS).toEqual(expect.arrayContaining(['privateKey', '*.privateKey', 'signature', '*.signature']));
  });

  it('censors auth headers under any prefix', () => {
    const { logger, lines } = capture();
    logger.info({ headers: { 'acme-signature': 'SIGVALUE==', 'acme-api-key': 'KEYVALUE', 'acme-timestamp': '2026-01-01T00:00:00.000Z' } }, 'request');
    const text = lines.join('');
    expect(text).not.toContain('SIGVALUE');
    expect(text).not.toContain('KEYVALUE');
    expect(text).toContain('2026-01-01T00:00:00.000Z');
  });

  it('censors registered secret values anywhere: message, fields, error stack, child bindings', () => {
    const censor = new LogCensor();
    censor.addSecret(API_SECRET);
    const { logger, lines } = capture({ censor });
    logger.info({ note: `secret is ${API_SECRET}` }, 'msg with %s', API_SECRET);
    logger.error(new Error(`failed with ${API_SECRET}`), 'boom');
    componentLogger(logger, 'x', { leaked: API_SECRET }).info('child');
    expect(lines).toHaveLength(3);
    expect(lines.join('')).not.toContain(API_SECRET);
    expect(lines.join('')).toContain('[Redacted]');
  });

  it('censors private-key-shaped hex, but keeps public hashes under known keys', () => {
    const { logger, records } = capture();
    logger.info({ txHash: TX_HASH, conditionId: TX_HASH, wallet: PRIVATE_KEY }, `key ${PRIVATE_KEY.slice(2)} in text`);
    const [record] = records();
    expect(record?.['txHash']).toBe(TX_HASH);
    expect(record?.['conditionId']).toBe(TX_HASH);
    expect(record?.['wallet']).toBe('[Redacted]');
    expect(record?.['msg']).toBe('key [Redacted] in text');
    expect(PUBLIC_HASH_KEYS).toContain('txHash');
  });

  it('keeps a Pyth feed id (public) under its keys, and still censors a key-shaped value beside it', () => {
    const { logger, records } = capture();
    const feed = '0xe62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43';
    logger.info({ pythFeed: feed, feedId: feed, pythAddress: feed, wallet: PRIVATE_KEY }, 'pricing');
    const [record] = records();
    expect([record?.['pythFeed'], record?.['feedId'], record?.['pythAddress']]).toEqual([feed, feed, feed]);
    expect(record?.['wallet']).toBe('[Redacted]');
  });

  it('ignores secrets too short to censor safely', () => {
    const censor = new LogCensor();
    censor.addSecret('abc');
    expect(censor.censorLine('{"msg":"abc"}')).toBe('{"msg":"abc"}');
  });

  it('pretty output goes through the censor too', async () => {
    const { logger, lines } = capture({ pretty: true });
    logger.info({ privateKey: PRIVATE_KEY, market: 'm' }, 'pretty line');
    await expect.poll(() => lines.join('')).toContain('pretty line');
    expect(lines.join('')).not.toContain(PRIVATE_KEY);
    expect(lines.join('')).not.toMatch(/^\{/);
  });
});

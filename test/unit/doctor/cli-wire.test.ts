/**
 * The `doctor` command's usage errors (exit 2, nothing sent) and the wire parsers of its two account reads
 * (the allowance as an exact bigint, the token listing's scopes).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli.js';
import { parseApiTokens, parseTradingAllowance } from '../../../src/exchange/account-wire.js';
import { API_ENDPOINTS } from '../../../src/exchange/endpoints.js';
import { ResponseValidationError } from '../../../src/exchange/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'om-doctor-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), env });
  return { code, out, err };
}

describe('outcome-maker doctor: usage', () => {
  it('refuses a simulator config with exit 2', async () => {
    const path = join(dir, 'paper.yaml');
    writeFileSync(path, 'venue: {kind: sim}\nstrategy: {name: fixed-spread}\n');
    const result = await run(['doctor', '--config', path]);
    expect(result.code).toBe(2);
    expect(result.err).toContain('doctor checks a live venue');
  });

  it('refuses a live config whose credentials are not set, with exit 2, before anything is sent', async () => {
    const path = join(dir, 'live.yaml');
    writeFileSync(path, 'venue: {kind: live, baseUrl: "http://127.0.0.1:9", socketUrl: "http://127.0.0.1:9"}\nmarkets: [alpha]\nstrategy: {name: fixed-spread}\n');
    const result = await run(['doctor', '--config', path]);
    expect(result.code).toBe(2);
    expect(result.err).toContain('OM_API_SECRET');
  });

  it('is listed in the help', async () => {
    const result = await run(['--help']);
    expect(result.out).toMatch(/doctor \[options\]\s+read-only checks/);
  });
});

describe('account-check answers', () => {
  it('reads the allowance exactly, as a string or a number', () => {
    const max = (2n ** 256n - 1n).toString();
    const parsed = parseTradingAllowance({ allowance: max, hasMinimumAllowance: true, type: 'clob', spender: `0x${'1'.repeat(40)}`, checkedAddress: `0x${'2'.repeat(40)}` }, API_ENDPOINTS.getTradingAllowance, 200);
    expect(parsed.allowanceRaw).toBe(2n ** 256n - 1n);
    expect(parseTradingAllowance({ allowance: 5, hasMinimumAllowance: false, type: 'negrisk', spender: `0x${'1'.repeat(40)}`, checkedAddress: `0x${'2'.repeat(40)}` }, API_ENDPOINTS.getTradingAllowance, 200).allowanceRaw).toBe(5n);
    expect(() => parseTradingAllowance({ allowance: '1.5', hasMinimumAllowance: true, type: 'clob', spender: `0x${'1'.repeat(40)}`, checkedAddress: `0x${'2'.repeat(40)}` }, API_ENDPOINTS.getTradingAllowance, 200)).toThrow(ResponseValidationError);
  });

  it('reads the token list with its scopes; a label may be null', () => {
    const tokens = parseApiTokens([{ tokenId: 't', label: null, scopes: ['trading'], createdAt: '2026-01-01T00:00:00Z', lastUsedAt: null }], API_ENDPOINTS.listApiTokens, 200);
    expect(tokens).toEqual([{ tokenId: 't', label: null, scopes: ['trading'] }]);
    expect(() => parseApiTokens({ tokens: [] }, API_ENDPOINTS.listApiTokens, 200)).toThrow(ResponseValidationError);
  });
});

/**
 * The real CLI as a child process (`node bin/outcome-maker.mjs`: the build when current, else the sources through
 * tsx): exit codes, redaction and "nothing sent before the config is valid", end to end. Kept to two spawns (~1.5 s each).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliProcess, type ProcessResult } from '../../support/cli-process.js';
import { recordingServerForFile } from '../../support/recording-server.js';

const dir = mkdtempSync(join(tmpdir(), 'om-cli-child-'));
const FAKE_KEY = `0x${'5a'.repeat(32)}`;
const FAKE_SECRET = Buffer.from('child-process-fake-secret-value').toString('base64');
const FAKE_TOKEN = 'fake-token-id-7f3e2d1c';

/** A stand-in venue that must never be reached: it answers 500 to everything and records what arrives. */
const venue = recordingServerForFile(() => ({ status: 500 }));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function runCli(args: string[], env: Record<string, string>): Promise<ProcessResult> {
  return runCliProcess(args, process.env['HOME'] ?? dir, env);
}

describe('outcome-maker as a child process', () => {
  it('check-config shows credential variable names and whether they are set, never their values', async () => {
    const config = join(dir, 'live.yaml');
    writeFileSync(config, `venue: {kind: live, baseUrl: "${venue.url}", socketUrl: "${venue.url}"}\nmarkets: [alpha-market]\nstrategy: {name: fixed-spread}\n`);
    const result = await runCli(['check-config', config], { OM_API_TOKEN_ID: FAKE_TOKEN, OM_API_SECRET: FAKE_SECRET, OM_PRIVATE_KEY: FAKE_KEY });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('# credentials.apiSecret: OM_API_SECRET is set');
    expect(result.stdout).toContain('apiSecret: OM_API_SECRET');
    for (const secret of [FAKE_KEY, FAKE_KEY.slice(2), FAKE_SECRET, FAKE_TOKEN]) {
      expect(result.stdout).not.toContain(secret);
      expect(result.stderr).not.toContain(secret);
    }
    expect(venue.requests.length).toBe(0);
  });

  it('run with an invalid config exits 2 listing every problem, before any request, without echoing a secret', async () => {
    const config = join(dir, 'bad.yaml');
    writeFileSync(
      config,
      `venue: {kind: live, baseUrl: "${venue.url}", socketUrl: "${venue.url}"}
markets: [alpha-market]
strategy: {name: fixed-spread}
credentials: {privateKey: "${FAKE_KEY}"}
risk: {maxPositionPerToken: "lots", maxOpenOrdersPerMarket: 3}
`,
    );
    const result = await runCli(['run', '--config', config], { OM_API_TOKEN_ID: FAKE_TOKEN, OM_API_SECRET: FAKE_SECRET, OM_PRIVATE_KEY: FAKE_KEY });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('3 config problems');
    expect(result.stderr).toContain('credentials.privateKey: looks like a private key');
    expect(result.stderr).toContain('risk.maxPositionPerToken: not a non-negative decimal number (got "lots")');
    expect(result.stderr).toContain('risk.maxOpenOrdersPerMarket: unknown key (got 3)');
    expect(result.stderr + result.stdout).not.toContain(FAKE_KEY.slice(2, 30));
    expect(venue.requests.length).toBe(0);
  });
});

/**
 * The `unit` project's guard (test/setup/no-io.ts, a setup file of that project): a unit test that listens on a port,
 * connects a socket or starts a child process gets a UnitIoError naming the fix, before anything is opened.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { UnitIoError } from '../../setup/no-io.js';

describe('no I/O in the unit project', () => {
  it('listening on a port throws, naming IO_UNIT_FILES', () => {
    const server = net.createServer();
    expect(() => server.listen(0, '127.0.0.1')).toThrow(UnitIoError);
    expect(() => server.listen(0, '127.0.0.1')).toThrow(/IO_UNIT_FILES in vitest\.config\.ts/);
    expect(server.listening).toBe(false);
  });

  it('connecting a socket throws', () => {
    expect(() => net.connect(9, '127.0.0.1')).toThrow(/net\.Socket\.connect in a unit test/);
  });

  it('starting a child process throws', () => {
    expect(() => spawn(process.execPath, ['--version'])).toThrow(/child_process spawn in a unit test/);
  });
});

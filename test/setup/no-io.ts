/**
 * Setup file of the `unit` project (vitest.config.ts): a unit test file runs in a shared worker (no isolation), so
 * it must not open a socket, listen on a port or start a child process. Each of those throws `UnitIoError`, naming
 * the file to move to the `integration` project (vitest.config.ts, IO_UNIT_FILES). Installed once per worker: the
 * wrappers keep the originals and are never stacked.
 */
import { ChildProcess } from 'node:child_process';
import net from 'node:net';

export class UnitIoError extends Error {
  override readonly name = 'UnitIoError';
}

const INSTALLED = Symbol.for('outcome-maker.no-io');

function refuse(what: string): never {
  throw new UnitIoError(
    `${what} in a unit test: the \`unit\` project runs pure modules only (no socket, no port, no child process). ` +
      'Add this file to IO_UNIT_FILES in vitest.config.ts so it runs in the `integration` project.',
  );
}

const marker = globalThis as { [INSTALLED]?: true };
if (marker[INSTALLED] !== true) {
  marker[INSTALLED] = true;
  net.Server.prototype.listen = function listen(): never {
    refuse('net.Server.listen');
  };
  net.Socket.prototype.connect = function connect(): never {
    refuse('net.Socket.connect');
  };
  // spawn, fork and exec all start through ChildProcess#spawn (internal, so not in @types/node).
  (ChildProcess.prototype as unknown as { spawn: () => never }).spawn = function spawn(): never {
    refuse('child_process spawn');
  };
}

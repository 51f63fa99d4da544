/**
 * Setup file of the `unit` project (vitest.config.ts): a unit test file runs in a shared worker (no isolation), so
 * it must not open a socket, listen on a port or start a child process. Each of those throws `UnitIoError`, naming
 * the file to move to the `integration` project (vitest.config.ts, IO_UNIT_FILES). Installed once per worker: the
 * wrappers keep the originals and are never stacked.
 */
import { ChildProcess } from 'node:child_process';
import net from 'node:net';

const INSTALLED = Symbol.for('outcome-maker.no-io');
const ERROR_CLASS = Symbol.for('outcome-maker.no-io.error');

class UnitIoErrorClass extends Error {
  override readonly name = 'UnitIoError';
}

/**
 * One class per worker, whichever evaluation of this module asks: without isolation a test file may evaluate this
 * module again, and the guard installed by the first evaluation must still throw an instance of what it imports.
 */
const holder = globalThis as { [ERROR_CLASS]?: typeof UnitIoErrorClass };
export const UnitIoError: typeof UnitIoErrorClass = (holder[ERROR_CLASS] ??= UnitIoErrorClass);

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

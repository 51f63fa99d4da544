/**
 * A real redis-server for tests: spawned on a free loopback port with no persistence, stopped (and restartable on
 * the same port, to test an outage and the recovery) by the test.
 *
 * `redisServerBinary()` is null when redis-server is not installed (CI installs it: .ci/run); tests then skip with a
 * message naming the install command.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';

export const REDIS_MISSING = 'redis-server is not installed (apt-get install redis-server): the shared rate-limit tests are skipped';

/** The redis-server binary on PATH, or null. */
export function redisServerBinary(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path !== '' ? path : null;
}

/** A free loopback TCP port (bound and released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface TestRedis {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGKILL: an outage, not a clean shutdown); resolves once it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Suspends the process (SIGSTOP): connected clients see their commands time out. `resume` continues it. */
  pause(): void;
  resume(): void;
}

/** Starts redis-server on a free port of 127.0.0.1 (no RDB, no AOF); stop it in the test's cleanup. */
export async function startTestRedis(port?: number): Promise<TestRedis> {
  const binary = redisServerBinary();
  if (binary === null) throw new Error(REDIS_MISSING);
  const chosen = port ?? (await freePort());
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const start = async (): Promise<void> => {
    if (child) return;
    const proc = spawn(binary, ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = proc;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    const deadline = Date.now() + 10_000;
    while (!(await canConnect(chosen))) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited with ${proc.exitCode} on port ${chosen}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${chosen} within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  await start();
  return {
    port: chosen,
    url: `redis://127.0.0.1:${chosen}`,
    async stop() {
      const proc = child;
      if (!proc) return;
      child = null;
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
    start,
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
  };
}

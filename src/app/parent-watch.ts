/**
 * The bot's watch on the process that started it. Started by an npm script (`npm start`, `npm run ...`), the bot is
 * npm's grandchild or, with `exec` in the script, its child: when npm dies without passing a stop signal on (SIGKILL,
 * a crash, an npm that does not forward), the bot would go on quoting as an orphan. So it polls its parent PID and,
 * when the parent changes (re-parented to init or a subreaper), stops cleanly, exactly as on SIGTERM.
 *
 * Owns: when the watch runs and what counts as orphaned. Invariants: on by default only under an npm script
 * (`npm_lifecycle_event` set); `OM_STOP_WITH_PARENT=1` turns it on for any launcher and `=0` off; never on when the
 * parent is already PID 1 or missing at start (a container's init, `nohup … &` that already lost its shell); the
 * orphan callback fires at most once.
 */

/** Whether to watch the parent, from the environment and the parent PID at start. Pure. */
export function parentWatchWanted(env: Readonly<Record<string, string | undefined>>, initialPpid: number): boolean {
  if (initialPpid <= 1) return false;
  const forced = env['OM_STOP_WITH_PARENT'];
  if (forced === '1') return true;
  if (forced === '0') return false;
  return env['npm_lifecycle_event'] !== undefined;
}

/** How often the parent PID is read. */
export const PARENT_POLL_MS = 500;

export interface ParentWatchOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly ppid: () => number;
  readonly every: (ms: number, run: () => void) => () => void;
  readonly onOrphaned: (previousPpid: number, currentPpid: number) => void;
}

/** Starts the watch when wanted; returns its stop function (a no-op when not watching). */
export function watchParent(options: ParentWatchOptions): () => void {
  const initial = options.ppid();
  if (!parentWatchWanted(options.env, initial)) return () => undefined;
  let fired = false;
  const cancel = options.every(PARENT_POLL_MS, () => {
    const current = options.ppid();
    if (fired || current === initial) return;
    fired = true;
    cancel();
    options.onOrphaned(initial, current);
  });
  return cancel;
}

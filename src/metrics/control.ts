/**
 * The operator's control channel to a running bot: `outcome-maker resume` lifts a kill-switch pause, and
 * `outcome-maker status` reads what the bot says of itself (`GET /status`).
 *
 * Mechanism: the bot's metrics server exposes `POST /control/resume`, guarded by a random bearer token.
 * On start the server writes a control file next to the ledger (`<database.path>.control.json`, mode 0600:
 * only the bot's user can read the token) holding `{pid, url, token}`; on stop it removes it. The CLI finds
 * the file through the same config, checks the process is alive and posts to the recorded URL (which has
 * the real port, also when the config says port 0). Nothing is exposed that a local user other than the
 * bot's own could use.
 *
 * Owns: the control file's path, format and life cycle, and the client side of the resume and status requests.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { errorText } from '../core/errors.js';

export const RESUME_PATH = '/control/resume';

/** What the bot answers to a resume request. */
export type ResumeOutcome = { readonly resumed: true; readonly wasPaused: boolean } | { readonly resumed: false; readonly reason: string };

const controlFileSchema = z.object({
  pid: z.int().positive(),
  url: z.string().regex(/^http:\/\/[^\s]+$/),
  token: z.string().regex(/^[0-9a-f]{64}$/),
  startedAt: z.string(),
});
export type ControlFile = z.infer<typeof controlFileSchema>;

/** Where the control file of the bot using this ledger lives; null for an in-memory ledger (no resume). */
export function controlFilePath(databasePath: string): string | null {
  return databasePath === ':memory:' ? null : `${databasePath}.control.json`;
}

export function createControlToken(): string {
  return randomBytes(32).toString('hex');
}

/** Write atomically (temp file + rename), readable by the owner only. Creates the directory if needed. */
export function writeControlFile(path: string, content: ControlFile): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(content)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}

export class ControlFileError extends Error {
  override readonly name = 'ControlFileError';
  constructor(
    readonly path: string,
    readonly reason: 'missing' | 'unreadable' | 'malformed',
    detail: string,
  ) {
    super(`control file ${path}: ${detail}`);
  }
}

export function readControlFile(path: string): ControlFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT';
    throw new ControlFileError(path, missing ? 'missing' : 'unreadable', missing ? 'not found' : 'cannot be read');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ControlFileError(path, 'malformed', 'is not JSON');
  }
  const result = controlFileSchema.safeParse(parsed);
  if (!result.success) throw new ControlFileError(path, 'malformed', 'does not have the expected fields');
  return result.data;
}

/** Remove the file if it is still ours (same token): a newer bot's file is left alone. */
export function removeControlFile(path: string, token: string): void {
  try {
    if (readControlFile(path).token !== token) return;
    unlinkSync(path);
  } catch {
    // Already gone or replaced: nothing to clean up.
  }
}

export type ResumeRequestResult =
  | { readonly ok: true; readonly wasPaused: boolean }
  | { readonly ok: false; readonly reason: 'not-running' | 'refused' | 'failed'; readonly message: string };

export interface ResumeRequestOptions {
  readonly timeoutMs?: number;
  /** Is a process with this pid alive (default: signal 0). */
  readonly isAlive?: (pid: number) => boolean;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

const answerSchema = z.union([
  z.object({ resumed: z.literal(true), wasPaused: z.boolean() }),
  z.object({ resumed: z.literal(false), reason: z.string() }),
]);

/** The control file of a running bot, or why there is none (never throws). */
function runningBot(controlPath: string, options: ResumeRequestOptions): { readonly ok: true; readonly control: ControlFile } | { readonly ok: false; readonly reason: 'not-running' | 'failed'; readonly message: string } {
  let control: ControlFile;
  try {
    control = readControlFile(controlPath);
  } catch (error) {
    if (error instanceof ControlFileError && error.reason === 'missing') {
      return { ok: false, reason: 'not-running', message: `no control file at ${controlPath}: the bot is not running, or runs with metrics.enabled: false` };
    }
    return { ok: false, reason: 'failed', message: errorText(error) };
  }
  if (!(options.isAlive ?? processIsAlive)(control.pid)) {
    return { ok: false, reason: 'not-running', message: `stale control file ${controlPath}: process ${control.pid} is not running` };
  }
  return { ok: true, control };
}

export type StatusRequestResult = { readonly ok: true; readonly status: unknown } | { readonly ok: false; readonly reason: 'not-running' | 'failed'; readonly message: string };

/** Read the status of the bot behind `controlPath` (its `GET /status`). Never throws. */
export async function requestStatus(controlPath: string, options: ResumeRequestOptions = {}): Promise<StatusRequestResult> {
  const found = runningBot(controlPath, options);
  if (!found.ok) return found;
  try {
    const response = await fetch(`${found.control.url}/status`, { signal: AbortSignal.timeout(options.timeoutMs ?? 5000) });
    const body: unknown = await response.json().catch(() => null);
    if (response.status === 200) return { ok: true, status: body };
    return { ok: false, reason: 'failed', message: `the bot answered HTTP ${response.status}${response.status === 503 ? ' (still starting)' : ''}` };
  } catch (error) {
    return { ok: false, reason: 'not-running', message: `cannot reach the bot at ${found.control.url}: ${errorText(error)}` };
  }
}

/** Ask the bot behind `controlPath` to resume quoting. Never throws; the result says what happened. */
export async function requestResume(controlPath: string, options: ResumeRequestOptions = {}): Promise<ResumeRequestResult> {
  const found = runningBot(controlPath, options);
  if (!found.ok) return found;
  const control = found.control;
  let response: Response;
  try {
    response = await fetch(`${control.url}${RESUME_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${control.token}` },
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
  } catch (error) {
    const detail = errorText(error);
    return { ok: false, reason: 'not-running', message: `cannot reach the bot at ${control.url}: ${detail}` };
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const answer = answerSchema.safeParse(body);
  if (response.status === 200 && answer.success && answer.data.resumed) return { ok: true, wasPaused: answer.data.wasPaused };
  if (response.status === 409 && answer.success && !answer.data.resumed) return { ok: false, reason: 'refused', message: answer.data.reason };
  if (response.status === 401) return { ok: false, reason: 'failed', message: 'the bot rejected the control token (is the control file from another run?)' };
  return { ok: false, reason: 'failed', message: `unexpected answer from the bot: HTTP ${response.status}` };
}

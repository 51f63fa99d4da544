/**
 * `outcome-maker doctor --config FILE [--json] [--rpc-url URL] [--socket-wait S]`: the command's public entry
 * (src/cli.ts loads it lazily). See docs/doctor.md for every check.
 *
 * Invariant: exit code 0 when no check failed (warnings allowed), 1 when one did; the `--json` form is one JSON
 * object on one line.
 */
import type { AppConfig, Environment } from '../config/index.js';
import { formatReport, runDoctor } from './run.js';
import type { DoctorReport } from './types.js';

export { DoctorUsageError, formatReport, runDoctor, type DoctorOptions } from './run.js';
export type { CheckResult, CheckStatus, DoctorReport } from './types.js';
export { bookUnitsVerdict, type MarketUnit } from './book-units.js';
export { rateLimitVerdict, budgetVerdict, type BudgetEntry } from './account-plan.js';

export interface DoctorCommandInput {
  readonly configPath: string;
  readonly config: AppConfig;
  readonly env: Environment;
  readonly json: boolean;
  readonly rpcUrl?: string;
  readonly socketWaitMs?: number;
}

/** Runs the checks, prints the report (text or one JSON object) and returns the exit code. */
export async function runDoctorCommand(input: DoctorCommandInput, stdout: (text: string) => void): Promise<{ code: number; report: DoctorReport }> {
  const report = await runDoctor({
    configPath: input.configPath,
    config: input.config,
    env: input.env,
    ...(input.rpcUrl === undefined ? {} : { rpcUrl: input.rpcUrl }),
    ...(input.socketWaitMs === undefined ? {} : { socketWaitMs: input.socketWaitMs }),
  });
  stdout(input.json ? `${JSON.stringify(report)}\n` : formatReport(report));
  return { code: report.ok ? 0 : 1, report };
}

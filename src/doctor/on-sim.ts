/**
 * `outcome-maker doctor --config config/paper.yaml --sim`: doctor tried on the embedded simulator. Starts the
 * simulator a sim config describes (as `run` would, on 127.0.0.1), points a live view of the config at it (its
 * URLs, header prefix, demo account, Hermes stand-in and JSON-RPC), runs every check, and stops the simulator.
 *
 * Owns: turning a sim config into the live config doctor reads. Invariants: nothing leaves 127.0.0.1; the demo
 * account's secrets reach doctor only through its environment object (never the process's); the simulator is closed
 * whatever the checks do.
 */
import { openVenue } from '../venue/venue.js';
import { liveViewOnSimulator } from '../rehearse/live-view.js';
import { runDoctorCommand, type DoctorCommandInput } from './index.js';
import { DoctorUsageError } from './run.js';

export async function runDoctorOnSimulator(input: DoctorCommandInput, stdout: (text: string) => void): Promise<{ code: number }> {
  const { config } = input;
  if (config.venue.kind !== 'sim') throw new DoctorUsageError(`doctor --sim: ${input.configPath} is a live config (venue.kind: live); --sim runs doctor on the simulator of a sim config such as config/paper.yaml`);
  const venue = await openVenue(config, input.env);
  try {
    const simulator = venue.simulator;
    if (simulator === null) throw new Error('the simulator did not start');
    const { config: live, env } = liveViewOnSimulator(config, simulator, input.env);
    const rpcUrl = `${venue.baseUrl}/_sim/rpc`;
    stdout(`doctor on the simulator of ${input.configPath} (${venue.baseUrl}, its demo account)\n`);
    return await runDoctorCommand({ ...input, config: live, env, rpcUrl: input.rpcUrl ?? rpcUrl }, stdout);
  } finally {
    await venue.close();
  }
}

/**
 * A replay of recorded answers over node:http on 127.0.0.1 (test/support/recording-server.ts), and the REST client
 * aimed at it, built the way the bot builds it (connectExchange with its defaults; only the limiter's spacing is
 * zero so the suite is quick). Owns nothing else: every answer is queued by the test that reads it.
 */
import { connectExchange, type ExchangeClient } from '../../src/exchange/client.js';
import { RequestLimiter } from '../../src/exchange/limiter.js';
import { startRecordingServer, type RecordingServer } from '../support/recording-server.js';

export const REPLAY_CREDENTIALS = { tokenId: 'contract-token', secret: Buffer.from('contract-secret').toString('base64') };
const KEY = `0x${'11'.repeat(32)}`;

export interface Replay {
  readonly server: RecordingServer;
  readonly client: ExchangeClient;
  close(): Promise<void>;
}

export async function startReplay(): Promise<Replay> {
  const server = await startRecordingServer(() => ({ status: 599, body: { message: 'no recorded answer queued for this request' } }));
  const client = await connectExchange({
    baseUrl: server.url,
    credentials: REPLAY_CREDENTIALS,
    signer: { privateKey: KEY },
    profileId: 1,
    transport: { limiter: new RequestLimiter({ minTimeMs: 0 }), retry: { maxServerErrorRetries: 0 } },
  });
  return {
    server,
    client,
    async close() {
      client.transport.close();
      await server.close();
    },
  };
}

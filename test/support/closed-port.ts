/** A loopback port nothing listens on (a server bound to port 0, then closed): a "wrong URL" that fails at once. */
import { createServer } from 'node:http';

export async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

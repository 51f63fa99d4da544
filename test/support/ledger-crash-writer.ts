/**
 * Child process for the crash test: opens the ledger at argv[2] and writes forever, one transaction
 * per fill (raw event + order + fill, sometimes a reversal of an earlier fill or a fill timed before
 * the last one, so replays are crash-tested too). After each commit it prints the fill's index.
 * It prints "open" before opening the database and "ready" after the migrations. The parent SIGKILLs it.
 */
import { openLedger } from '../../src/ledger/store.js';
import { seededRandom } from './fake-time.js';

const [path, seedText] = process.argv.slice(2);
if (path === undefined || seedText === undefined) {
  process.stderr.write('usage: ledger-crash-writer <db path> <seed>\n');
  process.exit(2);
}

const random = seededRandom(Number(seedText));
const BASE_MS = Date.UTC(2025, 0, 15);
process.stdout.write('open\n');
const ledger = openLedger({ path, synchronous: process.env.SYNC === 'NORMAL' ? 'NORMAL' : 'FULL', now: () => BASE_MS });
process.stdout.write('ready\n');

for (let index = ledger.counts().fills; ; index += 1) {
  const tradeEventId = `t${index}`;
  const orderId = `o${index}`;
  const token = random() < 0.5 ? 'YES' : 'NO';
  const side = random() < 0.6 ? 'BUY' : 'SELL';
  const priceTicks = 1 + Math.floor(random() * 999);
  const sizeRaw = (1 + Math.floor(random() * 5000)) * 1000;
  // Every fifth fill is timed before the previous one: the position is rebuilt from its fills.
  const atMs = BASE_MS + index * 1000 - (index % 5 === 4 ? 3500 : 0);
  ledger.atomically(() => {
    ledger.recordEvent(`settlement:${tradeEventId}`, 'SETTLEMENT', { tradeEventId, orderId, side, priceTicks, sizeRaw });
    ledger.recordOrder({
      clientOrderId: `crash-${index}`,
      venueOrderId: orderId,
      marketSlug: index % 3 === 0 ? 'alpha' : 'beta',
      slot: 'bid-0',
      token,
      tokenId: token === 'YES' ? '1' : '2',
      side,
      priceTicks,
      sizeRaw,
      status: 'live',
      atMs,
    });
    ledger.recordFill({
      tradeEventId,
      orderId,
      marketSlug: index % 3 === 0 ? 'alpha' : 'beta',
      token,
      tokenId: token === 'YES' ? '1' : '2',
      side,
      priceTicks,
      sizeRaw,
      feeRaw: side === 'BUY' ? 0 : Math.floor(sizeRaw / 100),
      role: side === 'BUY' ? 'maker' : 'taker',
      state: random() < 0.3 ? 'provisional' : 'mined',
      atMs,
    });
    if (index % 7 === 6) {
      const victim = Math.floor(random() * index);
      ledger.failFill({ tradeEventId: `t${victim}`, orderId: `o${victim}` }, { reason: 'crash-test FAILED', atMs });
    }
  });
  process.stdout.write(`${index}\n`);
}

/**
 * The live capital port (src/capital/chain-port.ts) on a real local EVM node: anvil on 127.0.0.1 (chain id 8453 like
 * Base; never a public chain) with the real Gnosis conditional-tokens contract deployed from its npm package, a
 * 6-decimal USDC stand-in and a NegRisk adapter stand-in (test/fixtures/evm/). A condition is prepared with a test
 * account as its oracle; the bot's wallet is funded, splits USDC into YES + NO, and the port merges and redeems
 * through viem, balances read before and after.
 *
 * Shown: merge and redeem (plain market, and a grouped one through the adapter) with what the receipt's logs moved;
 * `not-ready` before the payout is posted, for a missing adapter approval, for more sets than held; a receipt lost
 * (the wait times out after the broadcast) recovered by its journaled hash with exactly one transaction sent; a
 * transaction that reverts on-chain (its tokens moved away in the same block) reported `reverted` with its reason;
 * too little ETH and a gas price above the ceiling: nothing sent; a wrong chain id and an endpoint that does not
 * answer: typed errors naming them, the secret URL never printed; one transaction at a time per wallet.
 */
import { pino } from 'pino';
import { createTestClient, createWalletClient, encodeAbiParameters, encodeFunctionData, erc20Abi, getAddress, http, keccak256, parseAbi, toHex, zeroHash, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainCheckError, ChainRpcError, createChainCapitalPort, ReceiptTimeoutError, type ChainCapitalPort, type ChainCapitalPortOptions } from '../../src/capital/chain-port.js';
import type { CapitalMarketRef, CapitalTxJournal, CapitalTxOutcome, CapitalTxRequest } from '../../src/capital/port.js';
import { gnosisConditionalTokens, startAnvil, testContracts, type RunningAnvil } from '../support/anvil.js';

const CHAIN_ID = 8453;
const USDC = 1_000_000n;
const key = (label: string): Hex => keccak256(toHex(`outcome-maker chain-port test: ${label}`));
const deployer = privateKeyToAccount(key('deployer'));
const oracle = privateKeyToAccount(key('oracle'));
const bot = privateKeyToAccount(key('bot wallet'));
const operator = privateKeyToAccount(key('exchange operator'));

const CTF = parseAbi([
  'function prepareCondition(address oracle, bytes32 questionId, uint256 outcomeSlotCount)',
  'function reportPayouts(bytes32 questionId, uint256[] payouts)',
  'function getConditionId(address oracle, bytes32 questionId, uint256 outcomeSlotCount) pure returns (bytes32)',
  'function getCollectionId(bytes32 parentCollectionId, bytes32 conditionId, uint256 indexSet) view returns (bytes32)',
  'function getPositionId(address collateralToken, bytes32 collectionId) pure returns (uint256)',
  'function splitPosition(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] partition, uint256 amount)',
  'function setApprovalForAll(address operator, bool approved)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
]);
const USDC_ABI = [...erc20Abi, ...parseAbi(['function mint(address to, uint256 value)'])];

let anvil: RunningAnvil;
let contracts: { usdc: Hex; ctf: Hex; adapter: Hex };
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID });
  const code = testContracts();
  const usdc = await anvil.deploy(deployer, code.usdc);
  const ctf = await anvil.deploy(deployer, gnosisConditionalTokens().bytecode);
  const adapter = await anvil.deploy(deployer, `${code.negRiskAdapter}${encodeAbiParameters([{ type: 'address' }, { type: 'address' }], [ctf, usdc]).slice(2)}`);
  contracts = { usdc, ctf, adapter };
  for (const account of [oracle, bot, operator]) await anvil.fund(account.address, 10n ** 18n);
}, 60_000);

afterAll(async () => {
  await anvil?.stop();
});

/** A test-side transaction (the oracle's, the holder's own set-up), waited for. */
async function send(from: PrivateKeyAccount, to: Hex, data: Hex): Promise<void> {
  const wallet = createWalletClient({ account: from, transport: http(anvil.rpcUrl, { retryCount: 0 }) });
  const hash = await wallet.sendTransaction({ to, data, chain: null });
  const receipt = await anvil.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
}

/** A fresh binary condition (oracle = the test account), and `amount` of USDC split into YES + NO for `holder`. */
async function market(label: string, holder: PrivateKeyAccount, amount: bigint, options: { negRisk?: boolean } = {}): Promise<{ ref: CapitalMarketRef; questionId: Hex }> {
  const questionId = keccak256(toHex(label));
  await send(oracle, contracts.ctf, encodeFunctionData({ abi: CTF, functionName: 'prepareCondition', args: [oracle.address, questionId, 2n] }));
  const conditionId = await anvil.client.readContract({ address: contracts.ctf, abi: CTF, functionName: 'getConditionId', args: [oracle.address, questionId, 2n] });
  const ids: string[] = [];
  for (const indexSet of [1n, 2n]) {
    const collection = await anvil.client.readContract({ address: contracts.ctf, abi: CTF, functionName: 'getCollectionId', args: [zeroHash, conditionId, indexSet] });
    ids.push((await anvil.client.readContract({ address: contracts.ctf, abi: CTF, functionName: 'getPositionId', args: [contracts.usdc, collection] })).toString());
  }
  await send(holder, contracts.usdc, encodeFunctionData({ abi: USDC_ABI, functionName: 'mint', args: [holder.address, amount] }));
  await send(holder, contracts.usdc, encodeFunctionData({ abi: USDC_ABI, functionName: 'approve', args: [contracts.ctf, amount] }));
  await send(holder, contracts.ctf, encodeFunctionData({ abi: CTF, functionName: 'splitPosition', args: [contracts.usdc, zeroHash, conditionId, [1n, 2n], amount] }));
  const negRisk = options.negRisk === true;
  return {
    questionId,
    ref: { slug: label, conditionId, negRisk, adapter: negRisk ? contracts.adapter : null, exchange: operator.address, yesTokenId: ids[0] ?? '', noTokenId: ids[1] ?? '' },
  };
}

function port(account: PrivateKeyAccount, overrides: Partial<ChainCapitalPortOptions> = {}): ChainCapitalPort {
  return createChainCapitalPort({
    rpcUrl: anvil.rpcUrl,
    rpcLabel: anvil.rpcUrl,
    chainId: CHAIN_ID,
    account,
    contracts: { usdc: contracts.usdc, conditionalTokens: contracts.ctf },
    maxGasPriceWei: 100n * 10n ** 9n,
    receiptTimeoutMs: 10_000,
    rpcTimeoutMs: 5_000,
    pollingIntervalMs: 50,
    logger: silent,
    ...overrides,
  });
}

function journal(): CapitalTxJournal & { entries: { key: string; hash: Hex; nonce: number }[]; next: Promise<{ hash: Hex; nonce: number }> } {
  let resolveNext: (tx: { hash: Hex; nonce: number }) => void = () => undefined;
  const entries: { key: string; hash: Hex; nonce: number }[] = [];
  return {
    entries,
    next: new Promise((resolve) => (resolveNext = resolve)),
    broadcast(k, tx) {
      entries.push({ key: k, ...tx });
      resolveNext(tx);
    },
  };
}

/** The reason of a `not-ready` outcome (fails the test on any other). */
function notReady(outcome: CapitalTxOutcome): string {
  if (outcome.status !== 'not-ready') throw new Error(`expected not-ready, got ${JSON.stringify(outcome)}`);
  return outcome.reason;
}

const sent = (account: PrivateKeyAccount): Promise<number> => anvil.client.getTransactionCount({ address: account.address });
const request = (kind: 'merge' | 'redeem', ref: CapitalMarketRef, amountRaw: number): CapitalTxRequest => ({ kind, market: ref, amountRaw, key: `${kind}:${ref.slug}:${amountRaw}` });
const testClient = (): ReturnType<typeof createTestClient> => createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl, { retryCount: 0 }) });

describe('the chain capital port on anvil (real Gnosis conditional tokens)', () => {
  it('merges complete sets, waits for the payout, then redeems the winners: balances and receipts agree', async () => {
    const { ref, questionId } = await market('plain-btc-above-100k', bot, 40n * USDC);
    const chain = port(bot);
    const before = await chain.balances([ref.yesTokenId, ref.noTokenId]);
    expect(before.tokens.get(ref.yesTokenId)).toBe(40_000_000);
    expect(before.tokens.get(ref.noTokenId)).toBe(40_000_000);
    const usdcBefore = before.usdcRaw;

    const mergeJournal = journal();
    const nonce = await sent(bot);
    const merged = await chain.submit(request('merge', ref, 15_000_000), mergeJournal);
    expect(merged).toMatchObject({ status: 'confirmed', usdcInRaw: 15_000_000, yesBurnedRaw: 15_000_000, noBurnedRaw: 15_000_000 });
    if (merged.status !== 'confirmed') throw new Error('unreachable');
    expect(mergeJournal.entries).toEqual([{ key: 'merge:plain-btc-above-100k:15000000', hash: merged.hash, nonce }]);
    const receipt = await anvil.client.getTransactionReceipt({ hash: merged.hash });
    expect(merged.block).toBe(Number(receipt.blockNumber));
    expect(merged.gasWei).toBe((receipt.gasUsed * receipt.effectiveGasPrice).toString());
    expect(await sent(bot)).toBe(nonce + 1);
    const afterMerge = await chain.balances([ref.yesTokenId, ref.noTokenId]);
    expect(afterMerge.tokens.get(ref.yesTokenId)).toBe(25_000_000);
    expect(afterMerge.tokens.get(ref.noTokenId)).toBe(25_000_000);
    expect(afterMerge.usdcRaw).toBe(usdcBefore + 15_000_000);

    // Before the oracle reports: not ready, nothing sent.
    const early = await chain.submit(request('redeem', ref, 0), journal());
    expect(notReady(early)).toContain('is not posted on-chain yet');
    // More sets than held: refused before sending.
    const tooMany = await chain.submit(request('merge', ref, 30_000_000), journal());
    expect(notReady(tooMany)).toContain('holds 25000000 YES and 25000000 NO');
    expect(await sent(bot)).toBe(nonce + 1);

    await send(oracle, contracts.ctf, encodeFunctionData({ abi: CTF, functionName: 'reportPayouts', args: [questionId, [1n, 0n]] }));
    const redeemed = await chain.submit(request('redeem', ref, 25_000_000), journal());
    // YES won: 25 YES pay 25 USDC; the CTF burns every position of the condition the wallet holds, the 25 NO too.
    expect(redeemed).toMatchObject({ status: 'confirmed', usdcInRaw: 25_000_000, yesBurnedRaw: 25_000_000, noBurnedRaw: 25_000_000 });
    const after = await chain.balances([ref.yesTokenId, ref.noTokenId]);
    expect(after.tokens.get(ref.yesTokenId)).toBe(0);
    expect(after.tokens.get(ref.noTokenId)).toBe(0);
    expect(after.usdcRaw).toBe(usdcBefore + 40_000_000);
    expect(await sent(bot)).toBe(nonce + 2);
    // Nothing left: not ready, nothing sent.
    expect(notReady(await chain.submit(request('redeem', ref, 0), journal()))).toContain('holds no token');
    expect(await sent(bot)).toBe(nonce + 2);
  }, 60_000);

  it('a receipt lost after the broadcast is recovered by its journaled hash: one transaction, booked once', async () => {
    const { ref } = await market('plain-lost-receipt', bot, 10n * USDC);
    const test = testClient();
    const impatient = port(bot, { receiptTimeoutMs: 400 });
    const usdcBefore = (await impatient.balances([])).usdcRaw;
    const nonce = await sent(bot);
    await test.setAutomine(false);
    try {
      const record = journal();
      const lost = await impatient.submit(request('merge', ref, 4_000_000), record).then(
        () => null,
        (error: unknown) => error,
      );
      expect(lost).toBeInstanceOf(ReceiptTimeoutError);
      const journaled = record.entries[0];
      if (journaled === undefined) throw new Error('nothing journaled');
      expect(lost).toMatchObject({ hash: journaled.hash, nonce });
      // Still pending: recover waits for it; the block comes.
      const recovering = port(bot).recover(request('merge', ref, 4_000_000), journaled);
      await test.mine({ blocks: 1 });
      const recovered = await recovering;
      expect(recovered).toMatchObject({ status: 'confirmed', hash: journaled.hash, usdcInRaw: 4_000_000, yesBurnedRaw: 4_000_000, noBurnedRaw: 4_000_000 });
      // Asked again (a restart): the same answer from the receipt, nothing sent.
      expect(await port(bot).recover(request('merge', ref, 4_000_000), journaled)).toEqual(recovered);
    } finally {
      await test.setAutomine(true);
    }
    expect(await sent(bot)).toBe(nonce + 1);
    expect((await impatient.balances([])).usdcRaw).toBe(usdcBefore + 4_000_000);
    // A hash the node never saw: unknown (the caller decides from the balances).
    expect(await port(bot).recover(request('merge', ref, 1), { hash: keccak256(toHex('never sent')), nonce })).toBe('unknown');
  }, 60_000);

  it('a merge whose tokens leave the wallet in the same block reverts on-chain: reported with its reason, not confirmed', async () => {
    const { ref } = await market('plain-revert', bot, 10n * USDC);
    await send(bot, contracts.ctf, encodeFunctionData({ abi: CTF, functionName: 'setApprovalForAll', args: [operator.address, true] }));
    const test = testClient();
    const chain = port(bot);
    const nonce = await sent(bot);
    await test.setAutomine(false);
    let outcome;
    try {
      const record = journal();
      const submitting = chain.submit(request('merge', ref, 10_000_000), record);
      await record.next; // signed and journaled: now an exchange fill moves the YES away first (a higher tip orders it first)
      // Signed here with a fixed gas limit: a node's estimate would run on the pending state, where the merge already took them.
      const move = await operator.signTransaction({
        type: 'eip1559',
        chainId: CHAIN_ID,
        to: contracts.ctf,
        data: encodeFunctionData({ abi: CTF, functionName: 'safeTransferFrom', args: [bot.address, operator.address, BigInt(ref.yesTokenId), 6_000_000n, '0x'] }),
        nonce: await sent(operator),
        gas: 200_000n,
        maxPriorityFeePerGas: 50n * 10n ** 9n,
        maxFeePerGas: 90n * 10n ** 9n,
      });
      await anvil.client.sendRawTransaction({ serializedTransaction: move });
      await test.mine({ blocks: 1 });
      outcome = await submitting;
    } finally {
      await test.setAutomine(true);
    }
    expect(outcome).toMatchObject({ status: 'reverted', reason: 'SafeMath: subtraction overflow' });
    if (outcome.status !== 'reverted') throw new Error('unreachable');
    expect(BigInt(outcome.gasWei)).toBeGreaterThan(0n);
    expect(await sent(bot)).toBe(nonce + 1);
    const after = await chain.balances([ref.yesTokenId, ref.noTokenId]);
    expect(after.tokens.get(ref.yesTokenId)).toBe(4_000_000);
    expect(after.tokens.get(ref.noTokenId)).toBe(10_000_000);
  }, 60_000);

  it('a grouped market goes through its NegRisk adapter: the approval it needs, merge, then redeem of the winners', async () => {
    const { ref, questionId } = await market('grouped-eth-candidate', bot, 20n * USDC, { negRisk: true });
    const chain = port(bot);
    const nonce = await sent(bot);
    const unapproved = await chain.submit(request('merge', ref, 5_000_000), journal());
    expect(notReady(unapproved)).toContain(`has not approved the NegRisk adapter ${getAddress(contracts.adapter)}`);
    expect(await sent(bot)).toBe(nonce);
    await send(bot, contracts.ctf, encodeFunctionData({ abi: CTF, functionName: 'setApprovalForAll', args: [contracts.adapter, true] }));

    const usdcBefore = (await chain.balances([])).usdcRaw;
    const merged = await chain.submit(request('merge', ref, 5_000_000), journal());
    expect(merged).toMatchObject({ status: 'confirmed', usdcInRaw: 5_000_000, yesBurnedRaw: 5_000_000, noBurnedRaw: 5_000_000 });
    await send(oracle, contracts.ctf, encodeFunctionData({ abi: CTF, functionName: 'reportPayouts', args: [questionId, [0n, 1n]] }));
    const redeemed = await chain.submit(request('redeem', ref, 15_000_000), journal());
    expect(redeemed).toMatchObject({ status: 'confirmed', usdcInRaw: 15_000_000, yesBurnedRaw: 15_000_000, noBurnedRaw: 15_000_000 });
    const after = await chain.balances([ref.yesTokenId, ref.noTokenId]);
    expect([after.tokens.get(ref.yesTokenId), after.tokens.get(ref.noTokenId), after.usdcRaw]).toEqual([0, 0, usdcBefore + 20_000_000]);
  }, 60_000);

  it('one transaction at a time per wallet: two merges at once get consecutive nonces, both confirmed', async () => {
    const { ref } = await market('plain-queue', bot, 6n * USDC);
    const nonce = await sent(bot);
    const first = journal();
    const second = journal();
    const [a, b] = await Promise.all([port(bot).submit(request('merge', ref, 1_000_000), first), port(bot).submit(request('merge', ref, 2_000_000), second)]);
    expect([a.status, b.status]).toEqual(['confirmed', 'confirmed']);
    expect([first.entries[0]?.nonce, second.entries[0]?.nonce]).toEqual([nonce, nonce + 1]);
    expect(await sent(bot)).toBe(nonce + 2);
  }, 60_000);

  it('too little ETH for gas, or a gas price above the ceiling: nothing sent, the wallet and the amounts named', async () => {
    const poor = privateKeyToAccount(key('poor wallet'));
    await anvil.fund(poor.address, 10n ** 18n);
    const { ref } = await market('plain-no-gas', poor, 3n * USDC);
    await anvil.fund(poor.address, 1_000n);
    const nonce = await sent(poor);
    const outcome = await port(poor).submit(request('merge', ref, 1_000_000), journal());
    expect(outcome).toMatchObject({ status: 'insufficient-gas', wallet: poor.address, haveWei: '1000' });
    if (outcome.status !== 'insufficient-gas') throw new Error('unreachable');
    expect(BigInt(outcome.needWei)).toBeGreaterThan(1_000n);
    const capped = await port(poor, { maxGasPriceWei: 1n }).submit(request('merge', ref, 1_000_000), journal());
    expect(capped).toMatchObject({ status: 'gas-price-too-high', ceilingWei: '1' });
    expect(await sent(poor)).toBe(nonce);
  }, 60_000);

  it('a wrong chain id and an endpoint that does not answer are typed errors naming them; a secret URL is never printed', async () => {
    const wrongChain = await port(bot, { chainId: 1 }).balances([]).catch((error: unknown) => error);
    expect(wrongChain).toBeInstanceOf(ChainCheckError);
    expect(String(wrongChain)).toContain(`the RPC endpoint serves chain ${CHAIN_ID}, the config's venue.chainId is 1`);
    const deadUrl = 'http://127.0.0.1:9/provider-key-abc123';
    const dead = await port(bot, { rpcUrl: deadUrl, rpcLabel: 'from OM_RPC_URL', rpcTimeoutMs: 2_000 }).submit(request('merge', { slug: 'x', conditionId: zeroHash, negRisk: false, adapter: null, exchange: operator.address, yesTokenId: '1', noTokenId: '2' }, 1), journal()).catch((error: unknown) => error);
    expect(dead).toBeInstanceOf(ChainRpcError);
    expect(String(dead)).toContain('via RPC from OM_RPC_URL');
    expect(String(dead)).not.toContain('provider-key-abc123');
    expect(String(dead)).not.toContain(key('bot wallet').slice(2));
  }, 30_000);
});

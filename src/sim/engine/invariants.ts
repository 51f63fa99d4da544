/**
 * The engine's invariants, checked from its whole state (see docs/sim-engine.md "Invariants"): balances and locks,
 * books against LIVE orders, token supplies against grants, mints and burns, and collateral conservation.
 *
 * Returns every violation found (empty when sound); changes nothing.
 */
import type { EngineCore } from './core.js';
import { stepCollateral } from './matching.js';

export function checkInvariants(core: EngineCore): string[] {
  const problems: string[] = [];
  const usdcLocks = new Map<number, number>();
  const tokenLocks = new Map<string, number>();
  let liveCount = 0;
  for (const list of core.orderLists.values()) {
    const listedLive = list.orders.filter((o) => o.status === 'LIVE');
    if (listedLive.length !== list.live.size || listedLive.some((o) => !list.live.has(o))) {
      problems.push(`order list of account ${list.orders[0]?.profileId} market ${list.orders[0]?.marketId}: ${listedLive.length} LIVE orders, ${list.live.size} in its live set`);
    }
    for (const o of list.orders) {
      if (o.status !== 'LIVE') {
        if (o.lockedRaw !== 0) problems.push(`terminal order ${o.id} still locks ${o.lockedRaw}`);
        continue;
      }
      liveCount += 1;
      const expected = o.side === 'BUY' ? stepCollateral(o.remainingSizeRaw, o.priceTicks ?? 0) : o.remainingSizeRaw;
      if (o.lockedRaw !== expected) problems.push(`order ${o.id} locks ${o.lockedRaw}, needs ${expected}`);
      if (o.side === 'BUY') usdcLocks.set(o.profileId, (usdcLocks.get(o.profileId) ?? 0) + o.lockedRaw);
      else {
        const key = `${o.profileId}:${o.tokenId}`;
        tokenLocks.set(key, (tokenLocks.get(key) ?? 0) + o.lockedRaw);
      }
    }
  }
  let usdcTotal = 0;
  for (const a of core.accountsById.values()) {
    usdcTotal += a.usdc.total;
    if (a.usdc.total < 0 || a.usdc.locked < 0 || a.usdc.locked > a.usdc.total) {
      problems.push(`account ${a.profileId} USDC total ${a.usdc.total} locked ${a.usdc.locked}`);
    }
    if (a.usdc.locked !== (usdcLocks.get(a.profileId) ?? 0)) {
      problems.push(`account ${a.profileId} USDC locked ${a.usdc.locked} != resting needs ${usdcLocks.get(a.profileId) ?? 0}`);
    }
    for (const tokenId of a.tokenIds()) {
      const b = a.token(tokenId);
      if (b.total < 0 || b.locked < 0 || b.locked > b.total) problems.push(`account ${a.profileId} token ${tokenId} total ${b.total} locked ${b.locked}`);
      const need = tokenLocks.get(`${a.profileId}:${tokenId}`) ?? 0;
      if (b.locked !== need) problems.push(`account ${a.profileId} token ${tokenId} locked ${b.locked} != resting needs ${need}`);
    }
  }
  let restingCount = 0;
  let poolTotal = 0;
  for (const m of core.marketsBySlug.values()) {
    restingCount += m.book.size;
    poolTotal += m.poolRaw;
    for (const p of m.book.audit()) problems.push(`${m.spec.slug}: ${p}`);
    for (const o of m.book.entries()) if (o.status !== 'LIVE') problems.push(`${m.spec.slug}: non-live order ${o.id} on the book`);
    let yesSupply = 0;
    let noSupply = 0;
    for (const a of core.accountsById.values()) {
      yesSupply += a.tokenTotal(m.spec.yesTokenId);
      noSupply += a.tokenTotal(m.spec.noTokenId);
    }
    if (yesSupply !== m.yesGrantedRaw + m.mintedNetRaw - m.yesBurnedRaw) {
      problems.push(`${m.spec.slug}: YES supply ${yesSupply} != granted ${m.yesGrantedRaw} + minted ${m.mintedNetRaw} - burned ${m.yesBurnedRaw}`);
    }
    if (noSupply !== m.noGrantedRaw + m.mintedNetRaw - m.noBurnedRaw) {
      problems.push(`${m.spec.slug}: NO supply ${noSupply} != granted ${m.noGrantedRaw} + minted ${m.mintedNetRaw} - burned ${m.noBurnedRaw}`);
    }
    if (m.status !== 'RESOLVED' && m.poolRaw !== m.mintedNetRaw) problems.push(`${m.spec.slug}: pair collateral ${m.poolRaw} != minted ${m.mintedNetRaw}`);
  }
  if (restingCount !== liveCount) problems.push(`${liveCount} LIVE orders but ${restingCount} on books`);
  if (usdcTotal + core.feesCollectedRaw + poolTotal !== core.usdcInRaw) {
    problems.push(`collateral not conserved: USDC ${usdcTotal} + fees ${core.feesCollectedRaw} + pairs ${poolTotal} != ${core.usdcInRaw}`);
  }
  return problems;
}

/**
 * The Liquidity screen's Strike and Claim against a real localnet: refused while the chain would refuse them
 * (decided by simulating the real instruction), with the program's refusal in words and when it changes;
 * accepted after; a claim's preview matches what it pays, and its answer carries the new balance.
 */
import { address, getBase64Encoder, type Address } from '@solana/kit';
import { expect, it } from 'vitest';
import { findDepositRequestPda, findEpochRecordPda, findPoolPda, getExpireForWager, getPoolDecoder, getRequestDepositInstructionAsync, getWagerDecoder } from '../../protocol/wager';
import { fundedLiquidityProvider, keeperTestbed, openWager, sendInstructions } from '../../keeper/__tests__/keeper-test-helpers';
import { balanceAfterClaim, claimInstruction, readLiquidity, sharesFor, simulatorFor, strikeInstruction, type LiquidityContext } from '../../read-models/liquidity-view';

const bed = keeperTestbed({ prefix: 'liquidity-checks-', startPump: false });

it('enables Strike and Claim only when the simulated instruction would land, saying why not and when', async () => {
  const { localnet } = bed;
  const { rpc, keeperKey, mint, program, app } = bed.parts;
  const context: LiquidityContext = {
    rpc,
    program,
    usdcMint: mint,
    caller: keeperKey,
    simulate: simulatorFor(rpc, keeperKey),
    programs: { wager: program, oracle: address(localnet.manifest.programs.oracle) },
  };
  const readPool = async () => {
    const { value } = await rpc.getAccountInfo((await findPoolPda({ programAddress: program }))[0], { encoding: 'base64', commitment: 'confirmed' }).send();
    return getPoolDecoder().decode(getBase64Encoder().encode(value!.data[0]));
  };
  const slotNow = async () => rpc.getSlot({ commitment: 'confirmed' }).send();
  const strikeNow = async () => sendInstructions(rpc, keeperKey, (await strikeInstruction(rpc, program, keeperKey)).instructions);

  // A live epoch far enough from its close for the steps below (else strike it and use the next).
  let pool = await readPool();
  if ((await slotNow()) + 20n > pool.epochCloseSlot) {
    localnet.chain.advanceSlots(Number(pool.epochCloseSlot - (await slotNow())) + 1);
    await strikeNow();
    pool = await readPool();
  }

  // An LP asks to deposit 500 USDC; a wager opens before the close.
  const { lp, source, shares } = await fundedLiquidityProvider(localnet, rpc, mint, 500_000_000n);
  const [request] = await findDepositRequestPda({ owner: lp.address, epoch: pool.epoch }, { programAddress: program });
  const [epochRecord] = await findEpochRecordPda({ epoch: pool.epoch }, { programAddress: program });
  await sendInstructions(rpc, lp, [await getRequestDepositInstructionAsync({ owner: lp, request, epochRecord, source, amount: 500_000_000n }, { programAddress: program })]);
  const { wager } = await openWager(rpc, localnet, app);

  // Before the close: the program refuses the strike (epochNotClosed) and the claim (epochNotStruck).
  let view = await readLiquidity(context, lp.address);
  const epoch = Number(pool.epoch);
  expect(view.epoch.strike).toEqual({
    allowed: false,
    refusal: { code: 'epochNotClosed', sentence: 'The epoch has not closed yet: strike it after its close slot.' },
    when: { kind: 'close', epoch, closeSlot: Number(pool.epochCloseSlot), slotsLeft: expect.any(Number) },
  });
  const row = () => view.requests.find((r) => r.address === request)!;
  expect(row().claim).toMatchObject({ allowed: false, refusal: { code: 'epochNotStruck' }, when: { kind: 'close', epoch } });
  expect(row().preview).toBeNull();
  expect(view.position).toEqual({ owner: lp.address, shares: '0', valueNow: '0', pendingDeposits: '500000000', pendingWithdrawShares: '0', usdc: '0' });

  // Past the close, the wager opened before it still open: the program's second rule.
  localnet.chain.advanceSlots(Number(pool.epochCloseSlot - (await slotNow())) + 1);
  view = await readLiquidity(context, lp.address);
  expect(view.epoch.strike).toEqual({
    allowed: false,
    refusal: { code: 'epochHasOpenWagers', sentence: expect.stringMatching(/^Wagers opened before the epoch closed are still open/) },
    when: { kind: 'openWagers', epoch, count: 1 },
  });

  // The wager expires (never requested, past its window): now the strike would land, and pays its fee.
  localnet.chain.advanceSlots(160);
  const { value: wagerAccount } = await rpc.getAccountInfo(wager, { encoding: 'base64', commitment: 'confirmed' }).send();
  const decoded = getWagerDecoder().decode(getBase64Encoder().encode(wagerAccount!.data[0]));
  await sendInstructions(rpc, keeperKey, [await getExpireForWager({ caller: keeperKey, wagerAddress: wager, wager: decoded, programAddress: program })]);
  view = await readLiquidity(context, lp.address);
  expect(view.epoch.strike).toEqual({ allowed: true, refusal: null, when: null });
  expect(view.epoch.strikeFeeLamports).toBe(50_000);
  const priced = await readPool();
  await strikeNow();

  // Struck: the claim would land; its preview is the program's price, and the claim pays exactly that.
  view = await readLiquidity(context, lp.address);
  expect(row().claim).toEqual({ allowed: true, refusal: null, when: null });
  const expected = sharesFor(500_000_000n, priced.liquidity + priced.postCloseDebits - priced.postCloseCredits, priced.totalShares);
  expect(row().preview).toMatchObject({ shares: expected.toString(), callerFeeLamports: 50_000, transactionFeeLamports: 5_000 });
  expect(view.history.at(-1)?.epoch).toBe(epoch);
  const claim = await claimInstruction(context, request);
  await sendInstructions(rpc, keeperKey, claim.instructions);
  expect(await balanceAfterClaim(rpc, claim.kind, claim.destination)).toEqual({ account: shares, amount: expected.toString(), unit: 'shares' });
  view = await readLiquidity(context, lp.address);
  expect(view.requests.find((r) => r.address === request)).toBeUndefined();
  expect(view.position).toMatchObject({ shares: expected.toString(), pendingDeposits: '0' });
  expect(BigInt(view.position!.valueNow)).toBeGreaterThan(499_000_000n);
  // A claim of a request already claimed is refused in words before anything is sent.
  await expect(claimInstruction(context, request as Address)).rejects.toThrow(/may have been claimed already/);
});

/**
 * What the keeper checks itself before acting on a read (issue 16: a stale or mixed-up RPC answer taken
 * for the truth): a wager account must be the one asked for (its PDA from its own seeds and bump), and
 * the program config and the oracle's network state must be what they claim (owner and discriminator).
 */
import { address, generateKeyPairSigner } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { findConfigPda } from '../../protocol/wager';
import { decodeWagerAccount, fetchAccounts, fetchConfig, fetchNetworkStateBytes, isWagerAt } from '../chain-view';
import { keeperTestbed, openWager } from './keeper-test-helpers';

const bed = keeperTestbed({ prefix: 'keeper-read-identity-' });

describe('what the keeper believes of a read', () => {
  it('takes a wager account only for its own address, not for another wager\'s or a random one', async () => {
    const first = await openWager(bed.rpc, bed.localnet, bed.parts.app);
    const second = await openWager(bed.rpc, bed.localnet, bed.parts.app);
    const [a, b] = (await fetchAccounts(bed.rpc, [first.wager, second.wager])).map((account) => decodeWagerAccount(account, bed.parts.program)!);
    expect(isWagerAt(first.wager, a!, bed.parts.program)).toBe(true);
    expect(isWagerAt(second.wager, b!, bed.parts.program)).toBe(true);
    // An answer meant for the other wager (what a stale getMultipleAccounts gave the keeper) is refused.
    expect(isWagerAt(first.wager, b!, bed.parts.program)).toBe(false);
    expect(isWagerAt((await generateKeyPairSigner()).address, a!, bed.parts.program)).toBe(false);
    // Under another program id the same bytes are not that account either.
    expect(isWagerAt(first.wager, a!, address(bed.localnet.manifest.programs.oracle))).toBe(false);
  });

  it("refuses another account's bytes as the config or the oracle's network state", async () => {
    const program = bed.parts.program;
    const [config] = await findConfigPda({ programAddress: program });
    const oracle = address(bed.localnet.manifest.programs.oracle);
    const networkState = address(bed.localnet.manifest.oracle.networkState);
    expect((await fetchConfig(bed.rpc, config, program)).usdcMint).toBe(bed.localnet.manifest.usdcMint);
    expect((await fetchNetworkStateBytes(bed.rpc, networkState, oracle)).length).toBeGreaterThan(72);
    // The network state read as the config, and the config as the network state: both refused, naming why.
    await expect(fetchConfig(bed.rpc, networkState, program)).rejects.toThrow(/not the wager program's config/);
    await expect(fetchNetworkStateBytes(bed.rpc, config, oracle)).rejects.toThrow(/not the oracle's network state/);
  });
});

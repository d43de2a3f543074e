import { generateKeyPairSigner, getBase64Decoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import {
  decodeWagerEvent,
  decodeWagerEventsFromLogs,
  getPayoutClaimedEventEncoder,
  getWagerSettledEventEncoder,
  WAGER_PROGRAM_ADDRESS,
} from '..';

describe('wager program events', () => {
  it('tells events apart by their discriminator, even when one record would decode as another', async () => {
    const wager = (await generateKeyPairSigner()).address;
    const beneficiary = (await generateKeyPairSigner()).address;
    // 80 bytes: long enough that the 64-byte WagerSettled decoder would read it without complaint.
    const claimed = getPayoutClaimedEventEncoder().encode({ wager, beneficiary, payout: 1_960_000n });
    expect(decodeWagerEvent(claimed)).toEqual({ name: 'PayoutClaimed', data: expect.objectContaining({ wager, beneficiary, payout: 1_960_000n }) });

    const settled = getWagerSettledEventEncoder().encode({ wager, payout: 0n, stake: 5n, bucket: 0, pending: 0, padding: new Uint8Array(6) });
    expect(decodeWagerEvent(settled)?.name).toBe('WagerSettled');
    expect(decodeWagerEvent(new Uint8Array(80))).toBeUndefined();
  });

  it("reads only the wager program's own records from a transaction's logs", async () => {
    const wager = (await generateKeyPairSigner()).address;
    const record = getBase64Decoder().decode(getPayoutClaimedEventEncoder().encode({ wager, beneficiary: wager, payout: 7n }));
    const logs = [
      `Program ${WAGER_PROGRAM_ADDRESS} invoke [1]`,
      'Program Other111111111111111111111111111111111 invoke [2]',
      `Program data: ${record}`,
      'Program Other111111111111111111111111111111111 success',
      `Program data: ${record}`,
      `Program ${WAGER_PROGRAM_ADDRESS} success`,
    ];
    expect(decodeWagerEventsFromLogs(logs).map((event) => event.name)).toEqual(['PayoutClaimed']);
  });
});

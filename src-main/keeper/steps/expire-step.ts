/**
 * Spec 4.4, step 4: for each wager past `expirySlot` whose randomness is unfulfilled, send `expire_wager`
 * (the stake goes back; the caller is paid the expire fee). A fulfilled wager is settled instead, however
 * late: settlement has no deadline.
 */
import { getExpireForWager } from '../../protocol/wager';
import type { KeeperContext } from '../keeper-context';
import type { SendPath } from '../send-path';
import type { WagerStep } from './step';

export function createExpireStep(ctx: KeeperContext, sendPath: SendPath): WagerStep {
  const { signer, program } = ctx;
  return {
    name: 'expire',
    waitsOutBackoff: true,
    async advance({ slot, address, wager, fulfilled }) {
      if (slot <= wager.expirySlot || fulfilled) return false;
      ctx.launch(() =>
        sendPath.sendForWager({
          step: 'expire',
          address,
          build: async () => [await getExpireForWager({ caller: signer, wagerAddress: address, wager, programAddress: program })],
          onLanded: async (signature) => ({ state: 'expired', expireSignature: signature }),
        }),
      );
      return true;
    },
  };
}

/**
 * Spec 4.4, step 3 (first half): for each wager with `status = Requested` whose oracle request account is
 * fulfilled, send `settle_wager`. The fulfilment is recorded first (the oracle's latency in slots), and the
 * settlement's bucket and payout are read back once it landed.
 */
import { WagerStatus, getSettleForWager } from '../../protocol/wager';
import type { OracleLatencyLog } from '../../store/oracle-latency';
import type { KeeperContext } from '../keeper-context';
import type { SendPath } from '../send-path';
import type { KeeperSetup } from '../setup';
import type { WagerHistory } from '../wager-history';
import type { WagerStep } from './step';

export interface SettleDeps {
  sendPath: SendPath;
  setup: KeeperSetup;
  history: WagerHistory;
  oracleLatency: OracleLatencyLog;
}

export function createSettleStep(ctx: KeeperContext, { sendPath, setup, history, oracleLatency }: SettleDeps): WagerStep {
  const { signer, program, events, now } = ctx;
  return {
    name: 'settle',
    waitsOutBackoff: true,
    async advance({ slot, address, record, wager, fulfilled, urgent }) {
      if (wager.status !== WagerStatus.Requested) return false;
      if (record.state === 'queued') ctx.change(address, { state: 'requested', oracleRequest: wager.oracleRequest });
      if (!record.requestSignature) history.recordRequestFromChain(address, wager.openSlot);
      if (!fulfilled) return true;
      if (record.state !== 'fulfilled') {
        const requestedSlot = record.requestedSlot;
        ctx.change(address, { state: 'fulfilled', fulfilledSlot: Number(slot), oracleRequest: wager.oracleRequest });
        if (requestedSlot !== null) {
          const latency = { wager: address, requestedSlot, fulfilledSlot: Number(slot), slots: Number(slot) - requestedSlot };
          oracleLatency.record({ wager: address, requestedSlot, fulfilledSlot: Number(slot), at: new Date(now()).toISOString() });
          events.emit('latency', latency);
        }
      }
      const priority = urgent ? sendPath.urgentOptions(record) : undefined;
      const config = setup.config();
      ctx.launch(() =>
        sendPath.sendForWager({
          step: 'settle',
          address,
          build: async () => [await getSettleForWager({ caller: signer, wagerAddress: address, wager, programAddress: program })],
          onLanded: async (signature, _slot, logs) => {
            // From the transaction's logs as notified (no RPC call), else read back.
            const outcome = await history.settlementOutcome(signature, address, wager, logs);
            // Not readable yet: stay `fulfilled` with the signature; the next passes find the outcome (history.closed).
            return outcome ? { state: 'settled', settleSignature: signature, ...outcome } : { settleSignature: signature };
          },
          sendOptions: priority && config && { ...priority, maxPriorityFeeLamports: config.settleFee / 2n },
        }),
      );
      return true;
    },
  };
}

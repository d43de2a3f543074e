/**
 * Spec 4.4, step 2: for each wager with `status = Open` and current slot >= `openSlot + 2`, derive the
 * seed (from the SlotHashes sysvar) and send `request_randomness`. A request the oracle refused for want of
 * funds (its fee rose since the open) is sent again at once with a top-up of the wager's fee account; a
 * request still not made 10 slots after it could be is reported overdue.
 */
import type { Address } from '@solana/kit';
import { WagerStatus, getRequestRandomnessForWager } from '../../protocol/wager';
import { requestOpensAt } from '../../../src-shared/wager-timing';
import type { Discovery } from '../discovery';
import type { KeeperContext } from '../keeper-context';
import type { OverdueWatch } from '../overdue';
import type { SendPath } from '../send-path';
import type { KeeperSetup } from '../setup';
import type { WagerStep } from './step';

/** How a request refused by the oracle for want of funds is named (program-errors: the oracle's insufficientFunds). */
const ORACLE_FEE_SHORTFALL = 'oracle insufficientFunds';

export interface RequestRandomnessDeps {
  sendPath: SendPath;
  setup: KeeperSetup;
  overdue: OverdueWatch;
  discovery: Discovery;
}

export function createRequestRandomnessStep(ctx: KeeperContext, { sendPath, setup, overdue, discovery }: RequestRandomnessDeps): WagerStep {
  const { signer, program, rpc, log } = ctx;
  /** Wagers whose request the oracle refused for want of funds: their next request tops up the fee account. */
  const shortFeeAccounts = new Set<string>();

  return {
    name: 'request',
    waitsOutBackoff: true,
    async advance({ slot, address, record, wager, urgent, slotHashes }) {
      if (wager.status !== WagerStatus.Open) return false;
      overdue.check(record, wager, slot);
      if (slot < requestOpensAt(wager.openSlot)) return true;
      const hashes = await slotHashes();
      const endpoint = setup.oracle();
      const programConfig = setup.config();
      if (!endpoint || !programConfig) return true;
      const priority = urgent ? sendPath.urgentOptions(record) : undefined;
      let oracleRequest: Address | null = null;
      ctx.launch(() =>
        sendPath.sendForWager({
          step: 'request',
          address,
          build: async () => {
            // Once the oracle refused for want of funds (its fee rose since the open), the fee account is checked
            // and a top-up from our key comes first; the usual request costs no extra RPC call.
            const funding = shortFeeAccounts.has(address) ? { rpc, config: programConfig } : undefined;
            const built = await getRequestRandomnessForWager({
              caller: signer,
              wagerAddress: address,
              wager,
              programAddress: program,
              oracle: endpoint,
              slotHashes: hashes,
              feeAccountFunding: funding,
            });
            oracleRequest = built.oracleRequest;
            if (built.topUp) {
              const { needs } = built.topUp;
              log?.info(
                { wager: address, feeAccount: built.topUp.feeAccount, topUpLamports: built.topUp.lamports.toString(), balance: needs.balance.toString(), required: needs.required.toString(), oracleFee: needs.oracleFee.toString() },
                'wager fee account short of the request (oracle fee rose since the open): topping it up from the keeper in the request transaction',
              );
            }
            return built.instructions;
          },
          onLanded: async (signature, landedSlot) => {
            shortFeeAccounts.delete(address);
            if (oracleRequest) discovery.awaitRequest(oracleRequest);
            return { state: 'requested', requestSignature: signature, requestedSlot: Number(landedSlot), oracleRequest };
          },
          onFailed: (error) => {
            if (error !== ORACLE_FEE_SHORTFALL || shortFeeAccounts.has(address)) return undefined;
            // The oracle's fee rose since the open: the next pass (no backoff) sends the request with a top-up.
            shortFeeAccounts.add(address);
            return { lastError: `request: ${error} (the oracle's fee rose since the open; topping up)`, nextAttemptAt: 0 };
          },
          sendOptions: priority && { ...priority, maxPriorityFeeLamports: programConfig.requestFee / 2n },
        }),
      );
      return true;
    },
  };
}

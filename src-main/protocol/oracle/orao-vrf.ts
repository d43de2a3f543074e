/** ORAO VRF's own program, where the local oracle also runs on a bare localnet (as on devnet and mainnet). */
import { address } from '@solana/kit';

/** ORAO VRF's program id on devnet and mainnet-beta. */
export const ORAO_VRF_PROGRAM_ADDRESS = address('VRFzZoJdhFWL8rkvu87LpKM3RbcVezpMEc6X5GVDr7y');

/**
 * The CAIP-2 id of a Solana cluster: `solana:` + the first 32 characters of its genesis hash (the form
 * x402 and wallets use, e.g. devnet is `solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1`).
 */
export function solanaNetworkId(genesisHash: string): `solana:${string}` {
  return `solana:${genesisHash.slice(0, 32)}`;
}

/** Which keeper key a cluster uses: mainnet-beta its own, every other cluster the local/test one. */
export type KeyClass = 'local' | 'mainnet-beta';

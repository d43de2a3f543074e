/** JSON-RPC errors with the codes and messages a Solana validator uses. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const RPC_PARSE_ERROR = -32700;
export const RPC_INVALID_REQUEST = -32600;
export const RPC_METHOD_NOT_FOUND = -32601;
export const RPC_INVALID_PARAMS = -32602;
export const RPC_INTERNAL_ERROR = -32603;
/** sendTransaction preflight failure. */
export const RPC_SEND_TRANSACTION_PREFLIGHT_FAILURE = -32002;
export const RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE = -32003;

export const invalidParams = (message: string) => new RpcError(RPC_INVALID_PARAMS, message);

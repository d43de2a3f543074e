// runtime.c: the C library calls clang may expect, forwarded to the runtime's syscalls.
// Upstream clang -target bpf emits no libcalls on its own, but code that calls memcpy and friends
// explicitly (or a header that does) links against these.
#include "sol.h"

void *memcpy(void *dst, const void *src, u64 n) {
  sol_memcpy_(dst, src, n);
  return dst;
}
void *memmove(void *dst, const void *src, u64 n) {
  sol_memmove_(dst, src, n);
  return dst;
}
void *memset(void *dst, int value, u64 n) {
  sol_memset_(dst, (u8)value, n);
  return dst;
}
int memcmp(const void *a, const void *b, u64 n) {
  int result = 0;
  sol_memcmp_(a, b, n, &result);
  return result;
}

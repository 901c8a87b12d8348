#ifndef C_ALLOCATION_COUNTER_H
#define C_ALLOCATION_COUNTER_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this build counts heap allocations (Linux/glibc: `malloc` and friends are interposed),
/// 0 otherwise (macOS and other platforms: the counters stay at zero).
int allocation_counter_is_supported(void);

/// Calls to malloc, calloc, realloc (with a new block), posix_memalign, aligned_alloc and
/// memalign since the process started.
uint64_t allocation_counter_allocations(void);

/// Calls to free with a non-null pointer since the process started.
uint64_t allocation_counter_frees(void);

/// Bytes requested by those allocation calls since the process started.
uint64_t allocation_counter_bytes(void);

/// The usable size of the heap block at `pointer` (`malloc_usable_size`), or 0 where unknown.
size_t allocation_counter_usable_size(const void *pointer);

/// The bytes of the heap in use now (glibc's `mallinfo2`: small blocks and mapped ones), or 0
/// where unknown.
uint64_t allocation_counter_live_bytes(void);

#endif

// Counts heap allocations by interposing the C allocator on Linux (glibc).
//
// The executable defines malloc, free, calloc, realloc, posix_memalign, aligned_alloc and
// memalign; the dynamic linker binds every call in the process (the Swift runtime's included) to
// these definitions, which bump atomic counters and forward to glibc's own entry points
// (__libc_malloc and friends). Only the responder-bench executable links this target.

#include "CAllocationCounter.h"

#if defined(__linux__) && defined(__GLIBC__)

#include <errno.h>
#include <malloc.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static uint64_t allocations;
static uint64_t frees;
static uint64_t bytes;

static inline void count_allocation(size_t size) {
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&bytes, (uint64_t)size, __ATOMIC_RELAXED);
}

void *malloc(size_t size) {
    count_allocation(size);
    return __libc_malloc(size);
}

void free(void *pointer) {
    if (pointer != NULL) {
        __atomic_fetch_add(&frees, 1, __ATOMIC_RELAXED);
    }
    __libc_free(pointer);
}

void *calloc(size_t count, size_t size) {
    count_allocation(count * size);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    // A realloc is counted as one allocation (it may move the block); realloc(p, 0) frees.
    if (pointer == NULL || size != 0) {
        count_allocation(size);
    } else {
        __atomic_fetch_add(&frees, 1, __ATOMIC_RELAXED);
    }
    return __libc_realloc(pointer, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) {
        return EINVAL;
    }
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) {
        return ENOMEM;
    }
    count_allocation(size);
    *result = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation(size);
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation(size);
    return __libc_memalign(alignment, size);
}

int allocation_counter_is_supported(void) { return 1; }
uint64_t allocation_counter_allocations(void) {
    return __atomic_load_n(&allocations, __ATOMIC_RELAXED);
}
uint64_t allocation_counter_frees(void) { return __atomic_load_n(&frees, __ATOMIC_RELAXED); }
uint64_t allocation_counter_bytes(void) { return __atomic_load_n(&bytes, __ATOMIC_RELAXED); }
size_t allocation_counter_usable_size(const void *pointer) {
    return malloc_usable_size((void *)pointer);
}
uint64_t allocation_counter_live_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return (uint64_t)(info.uordblks + info.hblkhd);
}

#else

int allocation_counter_is_supported(void) { return 0; }
uint64_t allocation_counter_allocations(void) { return 0; }
uint64_t allocation_counter_frees(void) { return 0; }
uint64_t allocation_counter_bytes(void) { return 0; }
size_t allocation_counter_usable_size(const void *pointer) {
    (void)pointer;
    return 0;
}
uint64_t allocation_counter_live_bytes(void) { return 0; }

#endif

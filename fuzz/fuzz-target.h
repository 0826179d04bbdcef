/* fuzz/fuzz-target.h — the libFuzzer entry point that every fuzz-*.c
 * defines, declared for the replay driver (and for
 * -Wmissing-prototypes).  Each binary links exactly one target. */
#pragma once

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

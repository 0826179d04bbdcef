/* fuzz/fuzz-metadata.h — the libFuzzer entry point of fuzz-metadata.c,
 * declared for the replay driver (and for -Wmissing-prototypes). */
#pragma once

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

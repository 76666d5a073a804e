#ifndef SUSI_CPORTAUDIO_SHIM_H
#define SUSI_CPORTAUDIO_SHIM_H
#include <portaudio.h>

/// paInt16 and paNoFlag are cast macros that Swift does not import.
static inline PaSampleFormat susi_pa_int16(void) { return paInt16; }
static inline PaStreamFlags susi_pa_no_flag(void) { return paNoFlag; }
#endif

#ifndef SUSI_CSPEEXDSP_SHIM_H
#define SUSI_CSPEEXDSP_SHIM_H
#include <speex/speex_preprocess.h>
#include <speex/speex_resampler.h>

/// speex_preprocess_ctl takes its value as void*; typed setters keep the casts here.
static inline int susi_speex_set_int(SpeexPreprocessState *state, int request, int value) {
    return speex_preprocess_ctl(state, request, &value);
}

/// The float-valued requests (AGC level) take a float through the same void*.
static inline int susi_speex_set_float(SpeexPreprocessState *state, int request, float value) {
    return speex_preprocess_ctl(state, request, &value);
}
#endif

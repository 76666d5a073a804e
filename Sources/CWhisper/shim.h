// whisper.cpp 1.8.5's C API, as far as the speaker calls it. The library comes from the
// pinned pywhispercpp wheel (scripts/whisper-deps.sh), which carries no header, and is loaded
// at run time with dlopen (SusiSpeech's WhisperTranscriber), so the speaker builds and runs
// without it. whisper_full takes its parameters by value: the structs below must keep
// whisper.h's field order and types exactly (scripts/test_whisper_convert.py checks the same
// layout against the library's defaults, field by field).
#ifndef SUSI_CWHISPER_SHIM_H
#define SUSI_CWHISPER_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t n_heads;
    const void *heads;
} susi_whisper_aheads;

typedef struct {
    bool use_gpu;
    bool flash_attn;
    int gpu_device;
    bool dtw_token_timestamps;
    int dtw_aheads_preset;
    int dtw_n_top;
    susi_whisper_aheads dtw_aheads;
    size_t dtw_mem_size;
} susi_whisper_context_params;

typedef struct {
    float threshold;
    int min_speech_duration_ms;
    int min_silence_duration_ms;
    float max_speech_duration_s;
    int speech_pad_ms;
    float samples_overlap;
} susi_whisper_vad_params;

/// Asked between decoding steps; true stops the decoding (ggml_abort_callback).
typedef bool (*susi_whisper_abort_callback)(void *user_data);

typedef struct {
    int strategy;
    int n_threads;
    int n_max_text_ctx;
    int offset_ms;
    int duration_ms;
    bool translate;
    bool no_context;
    bool no_timestamps;
    bool single_segment;
    bool print_special;
    bool print_progress;
    bool print_realtime;
    bool print_timestamps;
    bool token_timestamps;
    float thold_pt;
    float thold_ptsum;
    int max_len;
    bool split_on_word;
    int max_tokens;
    bool debug_mode;
    int audio_ctx;
    bool tdrz_enable;
    const char *suppress_regex;
    const char *initial_prompt;
    bool carry_initial_prompt;
    const int32_t *prompt_tokens;
    int prompt_n_tokens;
    const char *language;
    bool detect_language;
    bool suppress_blank;
    bool suppress_nst;
    float temperature;
    float max_initial_ts;
    float length_penalty;
    float temperature_inc;
    float entropy_thold;
    float logprob_thold;
    float no_speech_thold;
    int greedy_best_of;
    int beam_size;
    float beam_patience;
    void *new_segment_callback;
    void *new_segment_callback_user_data;
    void *progress_callback;
    void *progress_callback_user_data;
    void *encoder_begin_callback;
    void *encoder_begin_callback_user_data;
    susi_whisper_abort_callback abort_callback;
    void *abort_callback_user_data;
    void *logits_filter_callback;
    void *logits_filter_callback_user_data;
    const void *grammar_rules;
    size_t n_grammar_rules;
    size_t i_start_rule;
    float grammar_penalty;
    bool vad;
    const char *vad_model_path;
    susi_whisper_vad_params vad_params;
} susi_whisper_full_params;

/// The library's log lines (ggml_log_callback); the speaker passes a silent one.
typedef void (*susi_whisper_log_callback)(int level, const char *text, void *user_data);

typedef const char *(*susi_whisper_version_fn)(void);
typedef void (*susi_whisper_log_set_fn)(susi_whisper_log_callback callback, void *user_data);
typedef susi_whisper_context_params (*susi_whisper_context_default_params_fn)(void);
typedef void *(*susi_whisper_init_from_file_with_params_fn)(const char *path, susi_whisper_context_params params);
typedef susi_whisper_full_params (*susi_whisper_full_default_params_fn)(int strategy);
typedef int (*susi_whisper_full_fn)(void *context, susi_whisper_full_params params, const float *samples, int count);
typedef int (*susi_whisper_full_n_segments_fn)(void *context);
typedef const char *(*susi_whisper_full_get_segment_text_fn)(void *context, int segment);
typedef void (*susi_whisper_free_fn)(void *context);

/// whisper_sampling_strategy's greedy decoding.
static const int susi_whisper_sampling_greedy = 0;

#endif

#ifndef SUSI_CPORTAUDIO_SHIM_H
#define SUSI_CPORTAUDIO_SHIM_H
#include <portaudio.h>
#include <dlfcn.h>
#include <stddef.h>

/// paInt16 and paNoFlag are cast macros that Swift does not import.
static inline PaSampleFormat susi_pa_int16(void) { return paInt16; }
static inline PaStreamFlags susi_pa_no_flag(void) { return paNoFlag; }

/// paInputOverflow is a cast macro that Swift does not import.
static inline PaStreamCallbackFlags susi_pa_input_overflow(void) { return paInputOverflow; }

/// ALSA's error handler type is variadic, which Swift cannot implement; this one drops the message.
static void susi_pa_quiet_alsa_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// JACK's error/info handler; drops the message.
static void susi_pa_quiet_jack_handler(const char *message) { (void)message; }

/// Silences the stderr chatter of the backends PortAudio loads (ALSA probing absent cards, JACK
/// looking for a server). Looked up at run time so SusiAudio need not link libasound or libjack;
/// a backend that is not loaded is skipped. Returns how many handlers were installed.
static inline int susi_pa_silence_backend_logs(void) {
    int installed = 0;
    void *global = dlopen(NULL, RTLD_NOW);
    if (global == NULL) { return 0; }
    typedef void (*alsa_handler_t)(const char *, int, const char *, int, const char *, ...);
    typedef int (*alsa_set_t)(alsa_handler_t);
    typedef void (*jack_set_t)(void (*)(const char *));
    alsa_set_t alsa_set = (alsa_set_t)dlsym(global, "snd_lib_error_set_handler");
    if (alsa_set != NULL && alsa_set(susi_pa_quiet_alsa_handler) == 0) { installed++; }
    jack_set_t jack_error = (jack_set_t)dlsym(global, "jack_set_error_function");
    if (jack_error != NULL) { jack_error(susi_pa_quiet_jack_handler); installed++; }
    jack_set_t jack_info = (jack_set_t)dlsym(global, "jack_set_info_function");
    if (jack_info != NULL) { jack_info(susi_pa_quiet_jack_handler); installed++; }
    dlclose(global);
    return installed;
}
#endif

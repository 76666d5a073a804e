#ifndef SUSI_CPOCKETSPHINX_SHIM_H
#define SUSI_CPOCKETSPHINX_SHIM_H
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/fe.h>

/// cmd_ln_init is variadic; the argv form takes the decoder's argument table directly.
static inline cmd_ln_t *susi_ps_config_from_argv(int argc, char *argv[]) {
    return cmd_ln_parse_r(NULL, ps_args(), argc, argv, TRUE);
}
#endif

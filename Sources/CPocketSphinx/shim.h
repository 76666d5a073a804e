#ifndef SUSI_CPOCKETSPHINX_SHIM_H
#define SUSI_CPOCKETSPHINX_SHIM_H
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/fe.h>
#include <sphinxbase/feat.h>
#include <sphinxbase/cmn.h>

/// cmd_ln_init is variadic; the argv form takes the decoder's argument table directly.
static inline cmd_ln_t *susi_ps_config_from_argv(int argc, char *argv[]) {
    return cmd_ln_parse_r(NULL, ps_args(), argc, argv, TRUE);
}

/// The same parse into an existing command line, replacing the values of the options given
/// (a search reads its options from the decoder's command line when it is created).
/// sphinxbase keeps the argv strings as keys: they must outlive `config`.
static inline cmd_ln_t *susi_ps_config_update(cmd_ln_t *config, int argc, char *argv[]) {
    return cmd_ln_parse_r(config, ps_args(), argc, argv, FALSE);
}

/// The live cepstral mean sits in feat_t/cmn_t struct fields, with no accessor functions that
/// save and restore all of it (cmn_live_set also rewrites the running sum): these reach it.

/// Length of the front end's cepstral-mean vector (0 without one).
static inline int susi_ps_cmn_length(ps_decoder_t *ps) {
    feat_t *feat = ps_get_feat(ps);
    return feat && feat->cmn_struct ? feat->cmn_struct->veclen : 0;
}

/// Copies the live cepstral-mean state out (`mean` and `sum` hold susi_ps_cmn_length values).
static inline void susi_ps_cmn_get(ps_decoder_t *ps, mfcc_t *mean, mfcc_t *sum, int32 *nframe) {
    cmn_t *cmn = ps_get_feat(ps)->cmn_struct;
    for (int32 i = 0; i < cmn->veclen; i++) { mean[i] = cmn->cmn_mean[i]; sum[i] = cmn->sum[i]; }
    *nframe = cmn->nframe;
}

/// Puts back a state copied by susi_ps_cmn_get.
static inline void susi_ps_cmn_set(ps_decoder_t *ps, mfcc_t const *mean, mfcc_t const *sum, int32 nframe) {
    cmn_t *cmn = ps_get_feat(ps)->cmn_struct;
    for (int32 i = 0; i < cmn->veclen; i++) { cmn->cmn_mean[i] = mean[i]; cmn->sum[i] = sum[i]; }
    cmn->nframe = nframe;
}
#endif

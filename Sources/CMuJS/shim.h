#ifndef SUSI_CMUJS_SHIM_H
#define SUSI_CMUJS_SHIM_H
#include <mujs.h>
#include <stdlib.h>
#include <string.h>

/// A byte budget for one script's heap: the allocator below refuses to grow past it, and
/// mujs turns the refusal into an "out of memory" error instead of the process growing.
typedef struct susi_js_budget {
    size_t used;
    size_t limit;
} susi_js_budget;

/// mujs's js_Alloc with a byte limit. Each block carries its size in front so frees and
/// reallocations keep the count exact.
static inline void *susi_js_alloc(void *context, void *pointer, int size) {
    susi_js_budget *budget = (susi_js_budget *)context;
    size_t *block = pointer ? ((size_t *)pointer) - 1 : NULL;
    size_t old = block ? *block : 0;
    if (size == 0) {
        if (block) { budget->used -= old; free(block); }
        return NULL;
    }
    if (size < 0 || budget->used - old + (size_t)size > budget->limit) return NULL;
    size_t *grown = (size_t *)realloc(block, sizeof(size_t) + (size_t)size);
    if (!grown) return NULL;
    budget->used = budget->used - old + (size_t)size;
    *grown = (size_t)size;
    return grown + 1;
}

/// A fresh interpreter (sloppy mode, as the Nashorn scripts SUSI skills were written for) over the budgeted allocator; NULL when even that fails.
static inline js_State *susi_js_new(susi_js_budget *budget) {
    return js_newstate(susi_js_alloc, budget, 0);
}

/// Frees an interpreter made by susi_js_new and everything it holds.
static inline void susi_js_free(js_State *J) {
    js_freestate(J);
}

/// Runs `source` as a script; the completion value (as text) or the error message is left on
/// top of the stack. Returns 0 on success, non-zero on an error (syntax, runtime, memory).
static inline int susi_js_run(js_State *J, const char *source) {
    if (js_ploadstring(J, "skill", source)) return 1;
    js_pushundefined(J);
    return js_pcall(J, 0);
}

/// What the script printed, as Nashorn's `print` writes it (SUSI takes it as the result when
/// the completion value is empty). Kept as the state's context.
typedef struct susi_js_output {
    char text[4096];
    size_t length;
} susi_js_output;

static inline void susi_js_append(susi_js_output *output, const char *text) {
    size_t length = strlen(text);
    size_t room = sizeof(output->text) - 1 - output->length;
    if (length > room) length = room;
    memcpy(output->text + output->length, text, length);
    output->length += length;
    output->text[output->length] = 0;
}

static inline void susi_js_print(js_State *J) {
    susi_js_output *output = (susi_js_output *)js_getcontext(J);
    int top = js_gettop(J);
    for (int index = 1; index < top; ++index) {
        if (index > 1) susi_js_append(output, " ");
        susi_js_append(output, js_tostring(J, index));
    }
    susi_js_append(output, "\n");
    js_pushundefined(J);
}

/// Gives scripts `print`, writing into `output` (nothing reaches a file or terminal).
static inline void susi_js_install_print(js_State *J, susi_js_output *output) {
    output->length = 0;
    output->text[0] = 0;
    js_setcontext(J, output);
    js_newcfunction(J, susi_js_print, "print", 0);
    js_setglobal(J, "print");
}

/// Whether the value on top of the stack is undefined or null (no completion value).
static inline int susi_js_top_is_empty(js_State *J) {
    return js_isundefined(J, -1) || js_isnull(J, -1);
}

/// The value on top of the stack as text (mujs owns the string until the state is freed).
static inline const char *susi_js_top_string(js_State *J) {
    return js_trystring(J, -1, "");
}
#endif

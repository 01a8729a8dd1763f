"""cffi builder for ``parley.engine._native._ffi`` (out-of-line API mode).

API mode compiles a C module against the installed ``ggml-backend.h``, ``whisper.h`` and
``llama.h``: every struct below ends in ``...;`` or lists only the fields we touch, and the C
compiler fills in the real layout, so a struct passed by value (``whisper_full_params``,
``llama_model_params``, ``llama_context_params``, ``llama_batch``) can never drift from the
headers.  cffi releases the GIL around every call in API mode.

Two small C helpers live here because they run on ggml's threads, where taking the GIL would
cost a lock per graph node or could happen during interpreter shutdown:
- ``parley_abort_flag_cb``: abort callback reading an ``int`` flag another thread sets.
- ``parley_log_cb``: log callback that drops messages below a level and forwards the rest to
  Python only while Python has said it is listening.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cffi

MODULE = "parley.engine._native._ffi"

CDEF = r"""
// ------------------------------------------------------------------ ggml
enum ggml_log_level {
    GGML_LOG_LEVEL_NONE, GGML_LOG_LEVEL_DEBUG, GGML_LOG_LEVEL_INFO,
    GGML_LOG_LEVEL_WARN, GGML_LOG_LEVEL_ERROR, GGML_LOG_LEVEL_CONT, ...
};
enum ggml_type { GGML_TYPE_F32, GGML_TYPE_F16, ... };
typedef void (*ggml_log_callback)(enum ggml_log_level level, const char * text, void * user_data);
typedef bool (*ggml_abort_callback)(void * data);
void ggml_log_set(ggml_log_callback log_callback, void * user_data);

typedef struct ggml_backend_device * ggml_backend_dev_t;
typedef struct ggml_backend_reg * ggml_backend_reg_t;
enum ggml_backend_dev_type {
    GGML_BACKEND_DEVICE_TYPE_CPU, GGML_BACKEND_DEVICE_TYPE_GPU, GGML_BACKEND_DEVICE_TYPE_IGPU,
    GGML_BACKEND_DEVICE_TYPE_ACCEL, ...
};
struct ggml_backend_feature { const char * name; const char * value; };
typedef struct ggml_backend_feature * (*ggml_backend_get_features_t)(ggml_backend_reg_t reg);

const char *               ggml_backend_dev_name(ggml_backend_dev_t device);
const char *               ggml_backend_dev_description(ggml_backend_dev_t device);
void                       ggml_backend_dev_memory(ggml_backend_dev_t device, size_t * free, size_t * total);
enum ggml_backend_dev_type ggml_backend_dev_type(ggml_backend_dev_t device);
ggml_backend_reg_t         ggml_backend_dev_backend_reg(ggml_backend_dev_t device);
const char *               ggml_backend_reg_name(ggml_backend_reg_t reg);
size_t                     ggml_backend_reg_dev_count(ggml_backend_reg_t reg);
void *                     ggml_backend_reg_get_proc_address(ggml_backend_reg_t reg, const char * name);
size_t                     ggml_backend_reg_count(void);
ggml_backend_reg_t         ggml_backend_reg_get(size_t index);
size_t                     ggml_backend_dev_count(void);
ggml_backend_dev_t         ggml_backend_dev_get(size_t index);
ggml_backend_reg_t         ggml_backend_load(const char * path);
void                       ggml_backend_load_all_from_path(const char * dir_path);
ggml_backend_reg_t         ggml_backend_reg_by_name(const char * name);
ggml_backend_dev_t         ggml_backend_reg_dev_get(ggml_backend_reg_t reg, size_t index);
void                       ggml_backend_register(ggml_backend_reg_t reg);

// ------------------------------------------------------------------ ggml RPC
// The RPC backend is a module loaded at run time, not linked: its functions are looked up with
// ggml_backend_reg_get_proc_address on the "RPC" registry and cast to these types.  The protocol
// version comes from the installed ggml-rpc.h (the remote module's Python handshake checks it).
#define RPC_PROTO_MAJOR_VERSION ...
#define RPC_PROTO_MINOR_VERSION ...
#define RPC_PROTO_PATCH_VERSION ...
typedef ggml_backend_reg_t (*parley_rpc_add_server_fn)(const char * endpoint);
typedef void (*parley_rpc_start_server_fn)(const char * endpoint, const char * cache_dir, size_t n_threads,
                                           size_t n_devices, ggml_backend_dev_t * devices);

// ------------------------------------------------------------------ whisper
typedef int32_t whisper_token;
struct whisper_context;
struct whisper_state;
enum whisper_sampling_strategy { WHISPER_SAMPLING_GREEDY, WHISPER_SAMPLING_BEAM_SEARCH, ... };
enum whisper_alignment_heads_preset { WHISPER_AHEADS_NONE, ... };

typedef void (*whisper_new_segment_callback)(struct whisper_context * ctx, struct whisper_state * state, int n_new, void * user_data);
typedef void (*whisper_progress_callback)(struct whisper_context * ctx, struct whisper_state * state, int progress, void * user_data);

struct whisper_context_params {
    bool use_gpu;
    bool flash_attn;
    int  gpu_device;
    ...;
};

struct whisper_full_params {
    enum whisper_sampling_strategy strategy;
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
    int  max_len;
    int  max_tokens;
    int  audio_ctx;
    const char * initial_prompt;
    bool carry_initial_prompt;
    const char * language;
    bool detect_language;
    bool suppress_blank;
    bool suppress_nst;
    float temperature;
    float temperature_inc;
    float entropy_thold;
    float logprob_thold;
    float no_speech_thold;
    struct { int best_of; } greedy;
    struct { int beam_size; float patience; } beam_search;
    whisper_new_segment_callback new_segment_callback;
    void * new_segment_callback_user_data;
    whisper_progress_callback progress_callback;
    void * progress_callback_user_data;
    ggml_abort_callback abort_callback;
    void * abort_callback_user_data;
    bool vad;
    const char * vad_model_path;
    ...;
};

struct whisper_timings { float sample_ms; float encode_ms; float decode_ms; float batchd_ms; float prompt_ms; };

const char * whisper_version(void);
const char * whisper_print_system_info(void);
struct whisper_context_params whisper_context_default_params(void);
struct whisper_full_params whisper_full_default_params(enum whisper_sampling_strategy strategy);
struct whisper_context * whisper_init_from_file_with_params(const char * path_model, struct whisper_context_params params);
struct whisper_context * whisper_init_from_file_with_params_no_state(const char * path_model, struct whisper_context_params params);
struct whisper_state * whisper_init_state(struct whisper_context * ctx);
void whisper_free(struct whisper_context * ctx);
void whisper_free_state(struct whisper_state * state);
int whisper_full(struct whisper_context * ctx, struct whisper_full_params params, const float * samples, int n_samples);
int whisper_full_with_state(struct whisper_context * ctx, struct whisper_state * state, struct whisper_full_params params, const float * samples, int n_samples);
int whisper_full_n_segments_from_state(struct whisper_state * state);
int whisper_full_lang_id_from_state(struct whisper_state * state);
int64_t whisper_full_get_segment_t0_from_state(struct whisper_state * state, int i_segment);
int64_t whisper_full_get_segment_t1_from_state(struct whisper_state * state, int i_segment);
const char * whisper_full_get_segment_text_from_state(struct whisper_state * state, int i_segment);
int whisper_full_n_segments(struct whisper_context * ctx);
int whisper_full_lang_id(struct whisper_context * ctx);
int64_t whisper_full_get_segment_t0(struct whisper_context * ctx, int i_segment);
int64_t whisper_full_get_segment_t1(struct whisper_context * ctx, int i_segment);
const char * whisper_full_get_segment_text(struct whisper_context * ctx, int i_segment);
float whisper_full_get_segment_no_speech_prob(struct whisper_context * ctx, int i_segment);
int whisper_full_n_tokens(struct whisper_context * ctx, int i_segment);
int whisper_n_audio_ctx(struct whisper_context * ctx);
int whisper_n_text_ctx(struct whisper_context * ctx);
int whisper_n_vocab(struct whisper_context * ctx);
int whisper_is_multilingual(struct whisper_context * ctx);
int whisper_model_n_audio_layer(struct whisper_context * ctx);
int whisper_model_n_text_layer(struct whisper_context * ctx);
int whisper_model_n_mels(struct whisper_context * ctx);
int whisper_model_ftype(struct whisper_context * ctx);
const char * whisper_model_type_readable(struct whisper_context * ctx);
int whisper_lang_max_id(void);
int whisper_lang_id(const char * lang);
const char * whisper_lang_str(int id);
const char * whisper_lang_str_full(int id);
struct whisper_timings * whisper_get_timings(struct whisper_context * ctx);
void whisper_reset_timings(struct whisper_context * ctx);
void whisper_log_set(ggml_log_callback log_callback, void * user_data);

struct whisper_vad_context;
struct whisper_vad_context_params { int n_threads; bool use_gpu; int gpu_device; ...; };
struct whisper_vad_context_params whisper_vad_default_context_params(void);
struct whisper_vad_context * whisper_vad_init_from_file_with_params(const char * path_model,
                                                                    struct whisper_vad_context_params params);
bool whisper_vad_detect_speech_no_reset(struct whisper_vad_context * vctx, const float * samples, int n_samples);
void whisper_vad_reset_state(struct whisper_vad_context * vctx);
int whisper_vad_n_probs(struct whisper_vad_context * vctx);
float * whisper_vad_probs(struct whisper_vad_context * vctx);
void whisper_vad_free(struct whisper_vad_context * ctx);

// ------------------------------------------------------------------ llama
typedef int32_t llama_token;
typedef int32_t llama_pos;
typedef int32_t llama_seq_id;
struct llama_model;
struct llama_context;
struct llama_vocab;
struct llama_sampler;
typedef struct llama_memory_i * llama_memory_t;
typedef bool (*llama_progress_callback)(float progress, void * user_data);

enum llama_split_mode { LLAMA_SPLIT_MODE_NONE, LLAMA_SPLIT_MODE_LAYER, LLAMA_SPLIT_MODE_ROW, ... };
enum llama_flash_attn_type { LLAMA_FLASH_ATTN_TYPE_AUTO, LLAMA_FLASH_ATTN_TYPE_DISABLED, LLAMA_FLASH_ATTN_TYPE_ENABLED, ... };
enum llama_vocab_type { LLAMA_VOCAB_TYPE_NONE, LLAMA_VOCAB_TYPE_SPM, LLAMA_VOCAB_TYPE_BPE, ... };
enum llama_pooling_type {
    LLAMA_POOLING_TYPE_UNSPECIFIED, LLAMA_POOLING_TYPE_NONE, LLAMA_POOLING_TYPE_MEAN, LLAMA_POOLING_TYPE_CLS,
    LLAMA_POOLING_TYPE_LAST, LLAMA_POOLING_TYPE_RANK, ...
};

struct llama_model_params {
    ggml_backend_dev_t * devices;
    int32_t n_gpu_layers;
    enum llama_split_mode split_mode;
    int32_t main_gpu;
    llama_progress_callback progress_callback;
    void * progress_callback_user_data;
    bool vocab_only;
    bool use_extra_bufts;
    ...;
};

struct llama_context_params {
    uint32_t n_ctx;
    uint32_t n_batch;
    uint32_t n_ubatch;
    uint32_t n_seq_max;
    int32_t  n_threads;
    int32_t  n_threads_batch;
    enum llama_flash_attn_type flash_attn_type;
    enum llama_pooling_type pooling_type;
    ggml_abort_callback abort_callback;
    void * abort_callback_data;
    bool embeddings;
    bool offload_kqv;
    bool no_perf;
    ...;
};

typedef struct llama_batch {
    int32_t n_tokens;
    llama_token  *  token;
    float        *  embd;
    llama_pos    *  pos;
    int32_t      *  n_seq_id;
    llama_seq_id ** seq_id;
    int8_t       *  logits;
} llama_batch;

typedef struct llama_chat_message { const char * role; const char * content; } llama_chat_message;
typedef struct llama_logit_bias { llama_token token; float bias; } llama_logit_bias;
typedef struct llama_token_data { llama_token id; float logit; float p; } llama_token_data;
typedef struct llama_token_data_array { llama_token_data * data; size_t size; int64_t selected; bool sorted; } llama_token_data_array;
#define LLAMA_DEFAULT_SEED ...
typedef struct llama_sampler_chain_params { bool no_perf; ...; } llama_sampler_chain_params;
struct llama_perf_context_data {
    double t_start_ms; double t_load_ms; double t_p_eval_ms; double t_eval_ms;
    int32_t n_p_eval; int32_t n_eval; int32_t n_reused;
    ...;
};

struct llama_model_params llama_model_default_params(void);
struct llama_context_params llama_context_default_params(void);
struct llama_sampler_chain_params llama_sampler_chain_default_params(void);
void llama_backend_init(void);
const char * llama_print_system_info(void);
void llama_log_set(ggml_log_callback log_callback, void * user_data);

struct llama_model * llama_model_load_from_file(const char * path_model, struct llama_model_params params);
void llama_model_free(struct llama_model * model);
struct llama_context * llama_init_from_model(struct llama_model * model, struct llama_context_params params);
void llama_free(struct llama_context * ctx);

uint32_t llama_n_ctx(const struct llama_context * ctx);
uint32_t llama_n_batch(const struct llama_context * ctx);
const struct llama_vocab * llama_model_get_vocab(const struct llama_model * model);
int32_t llama_model_n_ctx_train(const struct llama_model * model);
int32_t llama_model_n_embd(const struct llama_model * model);
int32_t llama_model_n_layer(const struct llama_model * model);
bool    llama_model_has_encoder(const struct llama_model * model);
int32_t llama_model_meta_val_str(const struct llama_model * model, const char * key, char * buf, size_t buf_size);
int32_t llama_model_desc(const struct llama_model * model, char * buf, size_t buf_size);
uint64_t llama_model_size(const struct llama_model * model);
uint64_t llama_model_n_params(const struct llama_model * model);
const char * llama_model_chat_template(const struct llama_model * model, const char * name);

enum llama_vocab_type llama_vocab_type(const struct llama_vocab * vocab);
int32_t llama_vocab_n_tokens(const struct llama_vocab * vocab);
bool llama_vocab_is_eog(const struct llama_vocab * vocab, llama_token token);
llama_token llama_vocab_bos(const struct llama_vocab * vocab);
llama_token llama_vocab_eos(const struct llama_vocab * vocab);
bool llama_vocab_get_add_bos(const struct llama_vocab * vocab);
bool llama_vocab_get_add_eos(const struct llama_vocab * vocab);
llama_token llama_vocab_sep(const struct llama_vocab * vocab);
llama_token llama_vocab_fim_pre(const struct llama_vocab * vocab);
llama_token llama_vocab_fim_suf(const struct llama_vocab * vocab);
llama_token llama_vocab_fim_mid(const struct llama_vocab * vocab);

int32_t llama_tokenize(const struct llama_vocab * vocab, const char * text, int32_t text_len,
                       llama_token * tokens, int32_t n_tokens_max, bool add_special, bool parse_special);
int32_t llama_token_to_piece(const struct llama_vocab * vocab, llama_token token, char * buf,
                             int32_t length, int32_t lstrip, bool special);
int32_t llama_chat_apply_template(const char * tmpl, const struct llama_chat_message * chat, size_t n_msg,
                                  bool add_ass, char * buf, int32_t length);

llama_memory_t llama_get_memory(const struct llama_context * ctx);
void llama_memory_clear(llama_memory_t mem, bool data);
bool llama_memory_seq_rm(llama_memory_t mem, llama_seq_id seq_id, llama_pos p0, llama_pos p1);
void llama_memory_seq_add(llama_memory_t mem, llama_seq_id seq_id, llama_pos p0, llama_pos p1, llama_pos delta);
llama_pos llama_memory_seq_pos_max(llama_memory_t mem, llama_seq_id seq_id);
bool llama_memory_can_shift(llama_memory_t mem);

struct llama_batch llama_batch_get_one(llama_token * tokens, int32_t n_tokens);
struct llama_batch llama_batch_init(int32_t n_tokens, int32_t embd, int32_t n_seq_max);
void llama_batch_free(struct llama_batch batch);
int32_t llama_decode(struct llama_context * ctx, struct llama_batch batch);
void llama_set_n_threads(struct llama_context * ctx, int32_t n_threads, int32_t n_threads_batch);
// A persistent CPU threadpool, as llama-bench uses (without one ggml starts threads for every
// graph).  ggml_threadpool_new/free live in the CPU backend module: look them up with
// ggml_backend_reg_get_proc_address.
struct ggml_threadpool_params { int n_threads; uint32_t poll; ...; };
typedef struct ggml_threadpool * ggml_threadpool_t;
struct ggml_threadpool_params ggml_threadpool_params_default(int n_threads);
void llama_attach_threadpool(struct llama_context * ctx, ggml_threadpool_t threadpool, ggml_threadpool_t threadpool_batch);
void llama_detach_threadpool(struct llama_context * ctx);
void llama_set_abort_callback(struct llama_context * ctx, ggml_abort_callback abort_callback, void * abort_callback_data);
float * llama_get_logits_ith(struct llama_context * ctx, int32_t i);
enum llama_pooling_type llama_pooling_type(const struct llama_context * ctx);
float * llama_get_embeddings_seq(struct llama_context * ctx, llama_seq_id seq_id);
float * llama_get_embeddings_ith(struct llama_context * ctx, int32_t i);
void llama_synchronize(struct llama_context * ctx);

struct llama_sampler * llama_sampler_chain_init(struct llama_sampler_chain_params params);
void llama_sampler_chain_add(struct llama_sampler * chain, struct llama_sampler * smpl);
struct llama_sampler * llama_sampler_init_greedy(void);
struct llama_sampler * llama_sampler_init_dist(uint32_t seed);
struct llama_sampler * llama_sampler_init_top_k(int32_t k);
struct llama_sampler * llama_sampler_init_top_p(float p, size_t min_keep);
struct llama_sampler * llama_sampler_init_min_p(float p, size_t min_keep);
struct llama_sampler * llama_sampler_init_temp(float t);
struct llama_sampler * llama_sampler_init_penalties(int32_t n_vocab, int32_t penalty_last_n, float penalty_repeat,
                                                    float penalty_freq, float penalty_present);
struct llama_sampler * llama_sampler_init_logit_bias(int32_t n_vocab, int32_t n_logit_bias,
                                                    const llama_logit_bias * logit_bias);
// The grammar sampler (GBNF): NULL when the grammar does not parse.  Accepting a token the
// grammar rejects aborts the process: only tokens that ``llama_sampler_apply`` left possible may
// be accepted (parley.engine.chat.constrained checks each one first).
struct llama_sampler * llama_sampler_init_grammar(const struct llama_vocab * vocab, const char * grammar_str,
                                                  const char * grammar_root);
void llama_sampler_apply(struct llama_sampler * smpl, llama_token_data_array * cur_p);
llama_token llama_sampler_sample(struct llama_sampler * smpl, struct llama_context * ctx, int32_t idx);
void llama_sampler_accept(struct llama_sampler * smpl, llama_token token);
void llama_sampler_reset(struct llama_sampler * smpl);
void llama_sampler_free(struct llama_sampler * smpl);

struct llama_perf_context_data llama_perf_context(const struct llama_context * ctx);
void llama_perf_context_reset(struct llama_context * ctx);

// ------------------------------------------------------------------ ours (C, below)
bool parley_abort_flag_cb(void * data);
void parley_log_cb(enum ggml_log_level level, const char * text, void * user_data);
void parley_log_configure(int min_level, int to_python);
extern "Python+C" void parley_py_log(int level, const char * text);
extern "Python" void parley_py_new_segment(struct whisper_context *, struct whisper_state *, int, void *);
extern "Python" void parley_py_progress(struct whisper_context *, struct whisper_state *, int, void *);
extern "Python" bool parley_py_load_progress(float, void *);
"""

C_SOURCE = r"""
#include <stdbool.h>
#include <stdint.h>
#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-rpc.h"
#include "whisper.h"
#include "llama.h"

/* The RPC functions are looked up at run time (the module is not linked): the compiler checks
   these types against ggml-rpc.h's declarations without referring to the symbols. */
typedef ggml_backend_reg_t (*parley_rpc_add_server_fn)(const char * endpoint);
typedef void (*parley_rpc_start_server_fn)(const char * endpoint, const char * cache_dir, size_t n_threads,
                                           size_t n_devices, ggml_backend_dev_t * devices);
#if defined(__GNUC__)
_Static_assert(__builtin_types_compatible_p(__typeof__(&ggml_backend_rpc_add_server), parley_rpc_add_server_fn),
               "ggml_backend_rpc_add_server changed");
_Static_assert(__builtin_types_compatible_p(__typeof__(&ggml_backend_rpc_start_server), parley_rpc_start_server_fn),
               "ggml_backend_rpc_start_server changed");
#endif

static void parley_py_log(int level, const char * text);

/* Abort when the int the caller owns turns non-zero; read without the GIL. */
static bool parley_abort_flag_cb(void * data) {
    return data != NULL && __atomic_load_n((int *) data, __ATOMIC_RELAXED) != 0;
}

static int parley_log_min_level = GGML_LOG_LEVEL_WARN;
static int parley_log_to_python = 0;
static int parley_log_last_level = GGML_LOG_LEVEL_INFO;

static void parley_log_configure(int min_level, int to_python) {
    __atomic_store_n(&parley_log_min_level, min_level, __ATOMIC_RELAXED);
    __atomic_store_n(&parley_log_to_python, to_python, __ATOMIC_RELAXED);
}

/* Continuation lines take the level of the line they continue. */
static void parley_log_cb(enum ggml_log_level level, const char * text, void * user_data) {
    (void) user_data;
    int lvl = (int) level;
    if (lvl == GGML_LOG_LEVEL_CONT) {
        lvl = parley_log_last_level;
    } else {
        parley_log_last_level = lvl;
    }
    if (lvl < __atomic_load_n(&parley_log_min_level, __ATOMIC_RELAXED) || text == NULL) {
        return;
    }
    if (__atomic_load_n(&parley_log_to_python, __ATOMIC_RELAXED)) {
        parley_py_log(lvl, text);
    }
}
"""


def make_builder(include_dir: Path, lib_dir: Path) -> cffi.FFI:
    """Return an FFI builder compiling against ``include_dir`` and linking ``lib_dir``."""
    ffibuilder = cffi.FFI()
    ffibuilder.cdef(CDEF)
    extra_link_args: list[str] = []
    extra_compile_args: list[str] = []
    if sys.platform == "darwin":
        extra_link_args.append("-Wl,-rpath,@loader_path")
    elif sys.platform != "win32":
        extra_link_args.append("-Wl,-rpath,$ORIGIN")
        extra_compile_args.append("-Wno-deprecated-declarations")
    ffibuilder.set_source(
        MODULE,
        C_SOURCE,
        include_dirs=[str(include_dir)],
        library_dirs=[str(lib_dir)],
        libraries=["llama", "whisper", "ggml", "ggml-base"],
        extra_link_args=extra_link_args,
        extra_compile_args=extra_compile_args,
    )
    return ffibuilder

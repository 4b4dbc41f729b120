/*
 * config.h - simulator configuration: every timing parameter, its type,
 * default, unit and description, declared once in config_params.def and
 * turned into the fields of config_t.
 *
 * Values come from, in order: the defaults, a preset or file given with
 * --config (files of `key = value` lines, `[section]` headers prefix keys as
 * `section.key`, parsed with inih), then --set key=value overrides.  Values
 * may carry units (32KiB, 1MiB, 64B; k/M/G for counts).  Unknown keys and
 * bad values are errors naming file:line (or the --set argument).
 * configs/README.md describes the format and every parameter.
 */
#ifndef HPS_CONFIG_H
#define HPS_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { CFG_UINT, CFG_SIZE, CFG_BOOL, CFG_ENUM } cfg_type_t;

/* CFG(field, "key", type, "default", choices or limits, "description") */
typedef struct config {
#define CFG(field, key, type, def, choices, desc) uint64_t field;
#include "config_params.def"
#undef CFG
    char source[256];            /* "defaults", the --config argument, + " + --set" */
} config_t;

/* Values of the enum parameters: the index of the name in its choices.
 * l1i/l1d/l2.repl hold repl_policy_t (cache.h), bpred.kind bpred_kind_t
 * (bpred.h); test_config.c checks the orders agree. */
/* `model`: "functional" runs no timing model; every other value has its
 * row in the timing models' table (pipeline/timing.c, keyed by the
 * CFG_MODEL_ value).  The parameter's choices are made from this list. */
#define CFG_MODEL_LIST(X) X(FUNCTIONAL, "functional") X(INORDER5, "inorder5") \
                          X(EV5, "ev5") X(OOO, "ooo")
#define CFG_MODEL_ENUM(id, name) CFG_MODEL_##id,
enum { CFG_MODEL_LIST(CFG_MODEL_ENUM) CFG_MODEL_COUNT };
#undef CFG_MODEL_ENUM
#define CFG_MODEL_CHOICE(id, name) "|" name
#define CFG_MODEL_CHOICES (CFG_MODEL_LIST(CFG_MODEL_CHOICE) + 1)
enum { CFG_RESOLVE_ID, CFG_RESOLVE_EX, CFG_RESOLVE_MEM };
/* ooo.memdep, in the order of its choices */
enum { CFG_MEMDEP_CONSERVATIVE, CFG_MEMDEP_STORE_SETS, CFG_MEMDEP_ORACLE };
enum { CFG_SPEC_CHECKPOINT, CFG_SPEC_LEAK };          /* dise.spec_counters */

typedef struct cfg_param {
    const char *key;
    cfg_type_t type;
    const char *def;
    const char *choices;         /* enums: '|'-separated names; numbers:
                                    limits "MIN..MAX" and/or "pow2", or NULL */
    const char *desc;
    size_t offset;               /* of the field in config_t */
} cfg_param_t;

extern const cfg_param_t cfg_params[];
extern const size_t cfg_param_count;

void config_defaults(config_t *cfg);
/* Load a preset (name of configs/NAME.ini, searched in the data roots of
 * datadir.h) or a file path (any
 * name with a '/' or ending in .ini).  The file's values are applied on top
 * of cfg's, then the whole is validated (config_validate).  On error cfg is
 * unchanged and err holds one line naming file:line and the key. */
bool config_load(config_t *cfg, const char *name_or_path, char *err, size_t errlen);
/* Apply one "key=value" override (no cross-parameter validation; a
 * successful one appends " + --set" to cfg->source). */
bool config_set(config_t *cfg, const char *assignment, char *err, size_t errlen);
/* Cross-parameter checks (cache geometry, TLB/BTB sets, pipe counts);
 * call after the last config_set. */
bool config_validate(const config_t *cfg, char *err, size_t errlen);
/* Every parameter, one `key = value  # description` line: a config file. */
void config_print(const config_t *cfg, FILE *out);
/* Call fn for each parameter in table order with its key, its value as a
 * config file writes it, and whether that is the built-in default. */
typedef void config_visit_fn(void *ctx, const char *key, const char *value, bool is_default);
void config_each(const config_t *cfg, config_visit_fn *fn, void *ctx);
/* The parameter with this key, or NULL. */
const cfg_param_t *config_find(const char *key);
/* Name of an enum parameter's value (fields of CFG_ENUM hold the index of
 * the name in the choices); NULL if key is no enum or value out of range. */
const char *config_enum_name(const char *key, uint64_t value);

#endif /* HPS_CONFIG_H */

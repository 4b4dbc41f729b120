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
 */
#ifndef HPS_CONFIG_H
#define HPS_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { CFG_UINT, CFG_SIZE, CFG_BOOL, CFG_ENUM } cfg_type_t;

/* CFG(field, "key", type, "default", "choices|for|enums" or NULL, "description") */
typedef struct config {
#define CFG(field, key, type, def, choices, desc) uint64_t field;
#include "config_params.def"
#undef CFG
    char source[256];            /* preset name or file the values came from */
} config_t;

typedef struct cfg_param {
    const char *key;
    cfg_type_t type;
    const char *def;
    const char *choices;         /* '|'-separated, enums only */
    const char *desc;
    size_t offset;               /* of the field in config_t */
} cfg_param_t;

extern const cfg_param_t cfg_params[];
extern const size_t cfg_param_count;

void config_defaults(config_t *cfg);
/* Load a preset (name of configs/NAME.ini, searched in the configs
 * directory next to the executable and in ./configs) or a file path.
 * false + message in err (with file:line) on error. */
bool config_load(config_t *cfg, const char *name_or_path, char *err, size_t errlen);
/* Apply one "key=value" override. */
bool config_set(config_t *cfg, const char *assignment, char *err, size_t errlen);
/* List every parameter with its value and description. */
void config_print(const config_t *cfg, FILE *out);
/* Index of an enum value in its choices (fields of CFG_ENUM hold it). */
const char *config_enum_name(const char *key, uint64_t value);

#endif /* HPS_CONFIG_H */

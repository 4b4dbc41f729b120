/*
 * provenance.h - what a result was made by: the simulator's version and git
 * hash, the command line and the fully resolved configuration.  Every
 * statistics file (text and JSON), report file and --dump-config file
 * hps-sim writes carries it, so a number can always be traced back to the
 * run that produced it (as gem5 writes config.ini beside stats.txt).
 */
#ifndef HPS_PROVENANCE_H
#define HPS_PROVENANCE_H

#include <stdio.h>

#include "config.h"

#define HPS_VERSION "0.1.0"

/* Remember the command line (call first thing in main). */
void provenance_init(int argc, char *const argv[]);
/* The guest's environment and working directory (after parse_options).
 * Only the variables' names are recorded: values taken from the host
 * (--env-host) may be secrets; --env values are in the command line. */
void provenance_set_guest(char *const *env, const char *cwd);
/* "0.1.0 (git 1a2b3c4d5e6f)"; "-dirty" marks a build with uncommitted
 * changes, "unknown" one made outside a git checkout. */
const char *provenance_version(void);
/* The command line, shell-quoted. */
const char *provenance_command(void);
/* Comment lines: "# hps-sim VERSION", "# command: ...", the guest's
 * environment (names) and working directory, then with
 * full_config every parameter ("# config KEY = VALUE"), else one line of
 * the parameters that differ from this version's defaults. */
void provenance_write_text(FILE *out, const config_t *cfg, int full_config);
/* A JSON member `"provenance": {"version": ..., "git": ..., "command":
 * ..., "argv": [...], "guest_env_names": [...], "guest_cwd": ..., "config":
 * {KEY: VALUE, ...}}` (no trailing comma). */
void provenance_write_json(FILE *out, const config_t *cfg, const char *indent);

#endif /* HPS_PROVENANCE_H */

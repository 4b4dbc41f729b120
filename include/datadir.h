/*
 * datadir.h - where hps-sim finds its data files (timing presets in
 * configs/, productions in productions/), wherever it is run from.
 *
 * The roots, in the order they are searched:
 *   the directory of the executable, and its parent (a build tree: the
 *   repository's ./hps-sim or build/hps-sim), and EXE/../share/hps-sim
 *   (an installed tree: `make install PREFIX=...` puts the binaries in
 *   PREFIX/bin and the data in PREFIX/share/hps-sim); only those that
 *   hold a configs/ directory count;
 *   then the current directory.
 * So `hps-sim --config ev5 --acf hot_method.acf prog` works from any
 * directory, and --help prints the roots it would search.
 */
#ifndef HPS_DATADIR_H
#define HPS_DATADIR_H

#include <stdbool.h>
#include <stddef.h>

#define DATADIR_MAX_ROOTS 4

/* The roots (absolute paths, "." for the current directory last). */
size_t datadir_roots(const char *roots[DATADIR_MAX_ROOTS]);

/* The first ROOT/SUBDIR/NAME (and NAME + EXT when NAME lacks it; EXT may
 * be NULL) that exists, into path.  False if none does. */
bool datadir_find(const char *subdir, const char *name, const char *ext,
                  char *path, size_t len);

/* "ROOT/SUBDIR, ROOT2/SUBDIR, ./SUBDIR": where datadir_find looks. */
void datadir_describe(const char *subdir, char *buf, size_t len);

#endif /* HPS_DATADIR_H */

/*
 * ckpt_run.c - --checkpoint-at, --checkpoint-out and --restore (see
 * ckpt_run.h; the file format is in sim/checkpoint.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checkpoint.h"
#include "ckpt_run.h"
#include "engine.h"
#include "hostmem.h"

void ckpt_run_check_options(const options_t *o)
{
    if (!o->checkpoint_at != !o->checkpoint_out)
        bad_input("--checkpoint-at N and --checkpoint-out FILE go together");
    if (o->checkpoint_at && o->cfg.model != CFG_MODEL_FUNCTIONAL)
        bad_input("--checkpoint-at runs the functional core to the checkpoint: drop --config "
                  "(restore the checkpoint under a timing model with --restore)");
    if (o->checkpoint_at && (o->acf_path || o->dcpi_db || o->cct || o->csprof ||
                             o->paths_path || o->interactive || o->trace_path))
        bad_input("--checkpoint-at only fast-forwards the program: it cannot be combined with "
                  "--acf, --dcpi, --cct, --csprof, --paths, --trace or --interactive (use them "
                  "with --restore)");
    if (o->checkpoint_at && o->max_insts && o->max_insts < o->checkpoint_at)
        bad_input("--max-insts %" PRIu64 " stops the run before --checkpoint-at %" PRIu64,
                  o->max_insts, o->checkpoint_at);
    if (o->checkpoint_out) {            /* a bad path loses no simulation */
        FILE *f = fopen(o->checkpoint_out, "wb");
        if (!f) bad_input("--checkpoint-out %s: cannot write: %s", o->checkpoint_out,
                          strerror(errno));
        fclose(f);
    }
    if (o->restore && (o->cct || o->csprof || o->paths_path))
        bad_input("--restore cannot be combined with --cct, --csprof or --paths: their exact "
                  "call stacks and paths need the run from the program's first instruction");
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Who the run is: the program, its ELF's hash (computed once), its
 * arguments. */
static ckpt_ident_t run_ident(const options_t *o, const isa_t *isa)
{
    static uint64_t hash;
    static bool hashed;
    char err[512];
    if (!hashed && !ckpt_hash_file(o->guest_argv[0], &hash, err, sizeof err)) bad_input("%s", err);
    hashed = true;
    return (ckpt_ident_t){ .isa = isa->name, .path = o->guest_argv[0], .elf_hash = hash,
                           .argc = o->guest_argc, .argv = o->guest_argv };
}

void ckpt_run_restore(const options_t *o, const isa_t *isa, cpu_t *c, sys_t *s)
{
    static ckpt_image_t img;            /* read once: the shell and baselines load again */
    char err[1024];
    if (!o->restore) return;
    if (!img.bytes && !ckpt_read_file(o->restore, &img, err, sizeof err)) bad_input("%s", err);
    ckpt_ident_t id = run_ident(o, isa);
    if (!ckpt_restore(c, s, &id, &img, err, sizeof err))
        bad_input("--restore %s: %s", o->restore, err);
    if (o->max_insts && o->max_insts <= c->instret)
        bad_input("--max-insts %" PRIu64 ": the checkpoint %s is at instruction %" PRIu64
                  " already (--max-insts counts from the program's first instruction)",
                  o->max_insts, o->restore, c->instret);
    if (o->checkpoint_at && o->checkpoint_at < c->instret)
        bad_input("--checkpoint-at %" PRIu64 ": the checkpoint %s is at instruction %" PRIu64
                  " already", o->checkpoint_at, o->restore, c->instret);
}

bool ckpt_run_take(const options_t *o, const isa_t *isa, struct engine *e, cpu_t *c)
{
    char err[1024];
    if (c->instret < o->checkpoint_at && engine_run(e, o->checkpoint_at) != STOP_MAX_INSTS) {
        fprintf(stderr, "hps-sim: the program stopped after %" PRIu64 " program instructions, "
                "before --checkpoint-at %" PRIu64 ": no checkpoint written\n", c->instret,
                o->checkpoint_at);
        remove(o->checkpoint_out);      /* created empty by the check before the run */
        return false;
    }
    c->stop = STOP_MAX_INSTS;           /* restored at N: already there */
    double t0 = now_seconds();
    ckpt_ident_t id = run_ident(o, isa);
    ckpt_image_t img;
    if (!ckpt_save(c, c->sys, &id, &img, err, sizeof err))
        bad_input("--checkpoint-at %" PRIu64 ": %s", o->checkpoint_at, err);
    if (!ckpt_write_file(o->checkpoint_out, &img, err, sizeof err))
        bad_input("--checkpoint-out %s", err);
    fprintf(stderr, "hps-sim: checkpoint at instruction %" PRIu64 " written to %s (%zu bytes, "
            "%.3f s)\n", c->instret, o->checkpoint_out, img.len, now_seconds() - t0);
    ckpt_image_free(&img);
    return true;
}

/* ---- the shell's in-memory checkpoints ---------------------------------------- */

void shell_ckpts_init(shell_ckpts_t *k, uint64_t host_mem)
{
    memset(k, 0, sizeof *k);
    k->budget = host_mem && host_mem / 4 < SHELL_CKPT_BYTES ? host_mem / 4 : SHELL_CKPT_BYTES;
}

static void drop_oldest(shell_ckpts_t *k)
{
    k->bytes -= k->img[0].len;
    hostmem_give(k->img[0].len);
    ckpt_image_free(&k->img[0]);
    memmove(k->img, k->img + 1, (k->n - 1) * sizeof *k->img);
    memmove(k->at, k->at + 1, (k->n - 1) * sizeof *k->at);
    k->n--;
}

void shell_ckpts_keep(shell_ckpts_t *k, const cpu_t *c, const ckpt_ident_t *id)
{
    char err[512];
    ckpt_image_t img;
    if (k->n && k->at[k->n - 1] >= c->instret) return;     /* kept already */
    if (!ckpt_save(c, c->sys, id, &img, err, sizeof err)) return;
    while (k->n && (k->bytes + img.len > k->budget || !hostmem_fits(img.len))) drop_oldest(k);
    if (img.len > k->budget || !hostmem_take(img.len, "a shell checkpoint")) {
        hostmem_clear_failure();
        ckpt_image_free(&img);
        return;
    }
    if (k->n == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 16;
        ckpt_image_t *ni = realloc(k->img, cap * sizeof *ni);
        if (ni) k->img = ni;
        uint64_t *na = ni ? realloc(k->at, cap * sizeof *na) : NULL;
        if (na) k->at = na;
        if (!ni || !na) {
            hostmem_give(img.len);
            ckpt_image_free(&img);
            return;
        }
        k->cap = cap;
    }
    k->img[k->n] = img;
    k->at[k->n++] = c->instret;
    k->bytes += img.len;
}

const ckpt_image_t *shell_ckpts_find(const shell_ckpts_t *k, uint64_t to)
{
    for (size_t j = k->n; j-- > 0;)
        if (k->at[j] <= to) return &k->img[j];
    return NULL;
}

void shell_ckpts_free(shell_ckpts_t *k)
{
    while (k->n) drop_oldest(k);
    free(k->img);
    free(k->at);
}

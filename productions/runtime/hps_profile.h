/*
 * hps_profile.h - the profile buffer shared by the guest handler runtime
 * (productions/runtime/, built for the guest ISA) and the host (dise/
 * runtime.c, which drains it).  Plain fixed-width types and a fixed layout,
 * so both compilers agree on every offset; the static asserts check that.
 *
 * The buffer is one object, `hps_profile`, in the runtime's .bss: a header
 * followed by `capacity` samples.  Handlers append samples and bump `count`;
 * when the buffer is full a handler executes hps.flush, the host reads
 * samples [0, count) and sets count back to 0.
 */
#ifndef HPS_PROFILE_BUFFER_H
#define HPS_PROFILE_BUFFER_H

/* The numbers below are plain macros (no type suffixes) so that the
 * assembly handlers (runtime/ISA/handlers_asm.S) can use them too. */
#define HPS_PROFILE_CAPACITY 4096

/* DISE's tally table (`tally dN`, dise/README.md): DISE_TALLY_WORDS 64-bit
 * words, the symbol dise_tally at the end of the runtime's .bss (so it
 * moves nothing else); `tally dN` adds 1 to word dN, and to word 0 when dN
 * is past the end, so word 0 counts the tallies outside the table.  PP on
 * DISE keeps its path counts there (tools/hps-pp-acf.c, table PPTALLY). */
#define DISE_TALLY_WORDS 262144

/* Sample kinds. */
#define HPS_SAMPLE_NONE      0
#define HPS_SAMPLE_METHOD    1 /* a = method address: a call's target, or a
                                  back-edge's target (the loop head), which the
                                  host maps to the containing function;
                                  b = pc of the event                         */
#define HPS_SAMPLE_CALL_PAIR 2 /* a = call-site pc, b = call target          */
#define HPS_SAMPLE_DATA      3 /* a = pc of the load/store, b = effective
                                  address, c = burst number                  */
#define HPS_SAMPLE_PATH      4 /* a = procedure entry, b = Ball-Larus path
                                  number (PP on DISE, tools/hps-pp-acf.c),
                                  c = calling context (hps-pp-acf --cct)     */
#define HPS_SAMPLE_PATH_COST 5 /* follows the path sample it is for
                                  (hps-pp-acf --metrics): a = cycles,
                                  b = L1D misses the guest read on the path   */

/* Offsets of the header fields, for the host's guest-memory accesses and
 * the assembly handlers, and the size of a sample. */
#define HPS_PROFILE_OFF_MAGIC    0
#define HPS_PROFILE_OFF_VERSION  8
#define HPS_PROFILE_OFF_CAPACITY 16
#define HPS_PROFILE_OFF_COUNT    24
#define HPS_PROFILE_OFF_FLUSHES  32
#define HPS_PROFILE_OFF_DROPPED  40
#define HPS_PROFILE_OFF_SAMPLES  48
#define HPS_SAMPLE_SIZE          32
/* From the end of the samples back to the start of the header. */
#define HPS_PROFILE_END_OFF      (HPS_PROFILE_OFF_SAMPLES + HPS_SAMPLE_SIZE * HPS_PROFILE_CAPACITY)

#ifndef __ASSEMBLER__
#include <stdint.h>

#define HPS_PROFILE_MAGIC    0x31464f5250535048ull  /* "HPSPROF1" in memory order */
#define HPS_PROFILE_VERSION  1u

typedef struct hps_sample {
    uint64_t kind, a, b, c;
} hps_sample_t;

typedef struct hps_profile_header {
    uint64_t magic;            /* HPS_PROFILE_MAGIC (written by the host)    */
    uint64_t version;          /* HPS_PROFILE_VERSION (host)                 */
    uint64_t capacity;         /* samples the buffer holds (host)            */
    uint64_t count;            /* samples in the buffer now                  */
    uint64_t flushes;          /* times a handler executed hps.flush         */
    uint64_t dropped;          /* samples lost because a flush freed nothing */
} hps_profile_header_t;

typedef struct hps_profile {
    hps_profile_header_t hdr;
    hps_sample_t samples[HPS_PROFILE_CAPACITY];
} hps_profile_t;

_Static_assert(sizeof(hps_sample_t) == HPS_SAMPLE_SIZE, "hps_sample_t is 4 x uint64");
_Static_assert(sizeof(hps_profile_header_t) == HPS_PROFILE_OFF_SAMPLES,
               "hps_profile_header_t is 6 x uint64");
_Static_assert(__builtin_offsetof(hps_profile_header_t, count) == HPS_PROFILE_OFF_COUNT,
               "count offset");
_Static_assert(__builtin_offsetof(hps_profile_header_t, flushes) == HPS_PROFILE_OFF_FLUSHES,
               "flushes offset");
_Static_assert(__builtin_offsetof(hps_profile_header_t, dropped) == HPS_PROFILE_OFF_DROPPED,
               "dropped offset");
_Static_assert(__builtin_offsetof(hps_profile_t, samples) == HPS_PROFILE_OFF_SAMPLES,
               "samples offset");
_Static_assert(sizeof(hps_profile_t) ==
               HPS_PROFILE_OFF_SAMPLES + 32ull * HPS_PROFILE_CAPACITY,
               "hps_profile_t layout");

#endif /* __ASSEMBLER__ */
#endif /* HPS_PROFILE_BUFFER_H */

/*
 * cfg.h - the control-flow graph of one procedure, built from its decoded
 * instructions, and its frequency equivalence classes: DCPI's analysis
 * (SOSP'97 section 6.1.1-6.1.2) estimates one execution frequency per
 * class of blocks and edges that must execute equally often.
 *
 * Blocks end at conditional branches, jumps and returns and start at the
 * targets of direct transfers inside the procedure; calls do not end a
 * block (execution comes back).  A return, or a transfer leaving the
 * procedure, goes to EXIT, and so does an Alpha jump through pv ($27), a
 * tail call by the calling standard.  Any other indirect jump that is not
 * a return is a switch: given the image (cfg_build_image), its table is
 * read (jumptab.h) and the jump gets an edge to each target; a switch
 * whose table cannot be read leaves the CFG "missing edges" and, as in
 * DCPI, every block and edge gets a class of its own.
 *
 * Classes are the cycle-equivalence classes (Johnson, Pearson and Pingali,
 * PLDI'94) of the graph with an EXIT -> ENTRY edge added and each block
 * split into an in-node and an out-node joined by the block's edge: two
 * edges are equivalent when every cycle through one goes through the
 * other.  In that 2-edge-connected graph, b is equivalent to a exactly
 * when b is a bridge of the graph without a; the classes are computed
 * that way (one bridge search per edge, O(E^2), fine for procedures).
 * Blocks outside the part reachable from ENTRY that reaches EXIT (dead
 * code, infinite loops) get classes of their own.
 */
#ifndef HPS_CFG_H
#define HPS_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa.h"

typedef struct cfg_block {
    size_t first, n;            /* its instructions: insns[first, first + n) */
    int cls;                    /* frequency class                          */
    bool live;                  /* reachable from ENTRY and reaching EXIT   */
} cfg_block_t;

enum { CFG_ENTRY = -1, CFG_EXIT = -2 };

typedef struct cfg_edge {
    int from, to;               /* block indices, or CFG_ENTRY / CFG_EXIT   */
    int cls;
} cfg_edge_t;

typedef struct cfg {
    insn_t *insns;              /* the procedure, in address order          */
    size_t ninsns;
    cfg_block_t *blocks;
    size_t nblocks;
    cfg_edge_t *edges;          /* ENTRY -> first block, block -> block/EXIT */
    size_t nedges;
    int nclasses;
    bool missing_edges;         /* an indirect jump with unknown targets    */
    size_t switches;            /* indirect jumps whose tables were read    */
} cfg_t;

/* The program's image: read(ctx, addr, buf, len) copies the bytes at
 * virtual address addr and returns how many it could. */
typedef size_t (*cfg_read_fn)(void *ctx, uint64_t addr, uint8_t *buf, size_t len);
typedef struct cfg_image {
    cfg_read_fn read;
    void *ctx;
} cfg_image_t;

/* Decode [start, start + size) (bytes of the image at those addresses) and
 * build the CFG with its classes.  Undecodable bytes end the procedure
 * there.  false only when not one instruction decodes. */
bool cfg_build(const isa_t *isa, const uint8_t *code, uint64_t start, size_t size, cfg_t *out);
/* The same, reading the switches' tables from img (NULL: not read). */
bool cfg_build_image(const isa_t *isa, const uint8_t *code, uint64_t start, size_t size,
                     const cfg_image_t *img, cfg_t *out);
/* The blocks and edges only (no frequency classes computed), with the
 * instructions at leaders[0..nleaders) starting blocks too (the landings
 * of indirect jumps; addresses that are no instruction are ignored). */
bool cfg_build_blocks(const isa_t *isa, const uint8_t *code, uint64_t start, size_t size,
                      const uint64_t *leaders, size_t nleaders, cfg_t *out);
void cfg_free(cfg_t *g);

/* The block holding instruction k. */
size_t cfg_block_of(const cfg_t *g, size_t k);
/* The instruction starting at pc, or -1. */
long cfg_insn_at(const cfg_t *g, uint64_t pc);

#endif /* HPS_CFG_H */

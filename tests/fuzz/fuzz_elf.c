/*
 * fuzz_elf.c - libFuzzer harness of the ELF loader: the input as a file,
 * loader_probe on it and, when it is a RISC-V or Alpha executable,
 * loader_load into a fresh guest memory, then its symbol table
 * (symtab_load) and the Alpha relaxation probe.  Seeds: small programs
 * built at fuzz time from the guests (tests/fuzz/seeds.sh).
 */
#include "fuzz_common.h"

#include "isa.h"
#include "loader.h"
#include "mem.h"
#include "symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write("prog", data, size);
    char err[512] = "";
    int machine = 0;
    bool ok = loader_probe(path, &machine, err, sizeof err);
    fuzz_check(ok, err, path);
    if (!ok) return 0;
    const isa_t *isa = machine == isa_alpha.elf_machine ? &isa_alpha : &isa_rv64;
    mem_t *mem = mem_new();
    image_t img;
    err[0] = 0;
    ok = loader_load(path, isa, mem, &img, err, sizeof err);
    fuzz_check(ok, err, path);
    if (ok) {
        symtab_free(symtab_load(path));
        (void)loader_alpha_relaxed(path);
    }
    mem_free(mem);
    return 0;
}

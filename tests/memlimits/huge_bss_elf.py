#!/usr/bin/python3
"""huge_bss_elf.py OUT [SEGMENTS] - write a RISC-V ELF executable of a few
hundred bytes whose program headers ask for SEGMENTS (default 60) bss
segments of 4 GiB each, besides a one-page code segment (li a0,0; ecall
exit would follow, but it must never be loaded)."""
import struct
import sys

out = sys.argv[1]
nbss = int(sys.argv[2]) if len(sys.argv) > 2 else 60
phnum = 1 + nbss
code_off = 64 + 56 * phnum
code = struct.pack('<3I', 0x00000513, 0x05d00893, 0x00000073)   # li a0,0; li a7,93; ecall
size = code_off + len(code)
base = 0x10000
ehdr = (b'\x7fELF' + bytes([2, 1, 1, 0]) + bytes(8) +
        struct.pack('<HHIQQQIHHHHHH', 2, 243, 1, base + code_off, 64, 0, 0x5,
                    64, 56, phnum, 64, 0, 0))
phdrs = struct.pack('<IIQQQQQQ', 1, 5, 0, base, base, size, size, 0x1000)
for k in range(nbss):
    vaddr = (k + 1) << 32
    phdrs += struct.pack('<IIQQQQQQ', 1, 6, 0, vaddr, vaddr, 0, 4 << 30, 0x1000)
with open(out, 'wb') as f:
    f.write(ehdr + phdrs + code)

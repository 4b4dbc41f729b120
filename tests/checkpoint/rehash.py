#!/usr/bin/python3
"""rehash.py IN OUT [--cut N] [--poke OFFSET BYTE]...: a crafted checkpoint
for tests/checkpoint: the body of IN (all but its 8-byte trailer) cut to N
bytes and/or with single bytes replaced, then given a trailer hash that
matches (FNV-1a 64, as sim/checkpoint.c), so the restore gets past the
envelope check and must find the damage field by field."""
import sys


def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h


def main():
    src, dst, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    body = bytearray(open(src, 'rb').read()[:-8])
    k = 0
    while k < len(args):
        if args[k] == '--cut':
            del body[int(args[k + 1]):]
            k += 2
        elif args[k] == '--poke':
            off = int(args[k + 1])
            if off < len(body):
                body[off] = int(args[k + 2], 0)
            k += 3
        else:
            sys.exit('rehash.py: unknown argument ' + args[k])
    open(dst, 'wb').write(bytes(body) + fnv1a(body).to_bytes(8, 'little'))


main()

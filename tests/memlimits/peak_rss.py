#!/usr/bin/python3
"""peak_rss.py COMMAND [ARG...] - run COMMAND (output to /dev/null) and
print its peak resident set size in KiB (getrusage of the child: the
VmHWM Linux kept for it), then its exit status."""
import resource
import subprocess
import sys

with open('/dev/null', 'wb') as null:
    rc = subprocess.call(sys.argv[1:], stdout=null, stderr=null)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)

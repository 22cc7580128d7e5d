#!/usr/bin/env python3
"""Lists public (and open) declarations without a `///` doc comment, as file:line: declaration.

Usage: Scripts/undocumented.py [folder ...]   (default: Sources/Vignette Sources/VignetteCodecs
Sources/VignetteHTTP). Exit status 1 when any is found. Attributes (@inlinable, @discardableResult)
and other doc lines between the comment and the declaration are allowed; `public init` of a
member-wise kind and enum cases inside a documented enum are listed too: each gets its own line.
"""
import os
import re
import sys

DECL = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?!import\b)(?!extension\b)')


def undocumented(path):
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for number, line in enumerate(lines):
        if not DECL.match(line):
            continue
        previous = number - 1
        while previous >= 0 and (lines[previous].strip().startswith('@') or lines[previous].strip() == ''):
            if lines[previous].strip() == '':
                previous = -1
                break
            previous -= 1
        if previous < 0 or not lines[previous].strip().startswith('///'):
            yield number + 1, line.strip()


def main():
    folders = sys.argv[1:] or ['Sources/Vignette', 'Sources/VignetteCodecs', 'Sources/VignetteHTTP']
    found = 0
    for folder in folders:
        for root, _, files in os.walk(folder):
            for name in sorted(files):
                if name.endswith('.swift'):
                    path = os.path.join(root, name)
                    for number, line in undocumented(path):
                        print(f'{path}:{number}: {line}')
                        found += 1
    print(f'{found} undocumented public declarations', file=sys.stderr)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())

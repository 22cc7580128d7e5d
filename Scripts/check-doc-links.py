#!/usr/bin/env python3
"""Checks the links of README.md and docs/*.md (and the DocC catalogue's articles).

Usage: Scripts/check-doc-links.py [file.md ...]   (default: README.md, docs/*.md,
Sources/*/*.docc/*.md, run from the repository's root). For every Markdown link or image
`[text](target)` and every reference definition `[name]: target` outside code blocks and code
spans:
- a relative target must name a file or folder that exists, inside the repository;
- a `#anchor` (alone, or after a Markdown file) must be a heading of that file, as GitHub makes
  anchors (lower case, punctuation dropped, spaces as hyphens, -1, -2 for repeats);
- no target may leave the repository (`../` past its root, an absolute path, `file:`).
It also refuses `../` anywhere else (prose, code spans, code blocks): such a path names something
outside the repository, which a reader who has the repository alone cannot follow. http(s) and mailto links are not fetched.
Exit status 1 with one `file:line: problem` line each when anything is wrong.
"""
import glob
import os
import re
import sys

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
INLINE = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
REFERENCE = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$')
EXTERNAL = re.compile(r'^[a-zA-Z][a-zA-Z0-9+.-]*:')
FENCE = re.compile(r'^\s*(```|~~~)')
CODE_SPAN = re.compile(r'(`+)(.+?)\1')


def anchors(path):
    """The anchors GitHub gives the headings of the Markdown file at path."""
    seen = {}
    result = set()
    in_code = False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if FENCE.match(line):
                in_code = not in_code
                continue
            if in_code:
                continue
            match = re.match(r'^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$', line)
            if not match:
                continue
            text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', match.group(1))   # links: their text
            text = text.replace('`', '').strip().lower()
            slug = re.sub(r'[^\w\- ]', '', text).replace(' ', '-')
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            result.add(slug if count == 0 else f'{slug}-{count}')
    return result


def inside(path):
    real = os.path.realpath(path)
    return real == ROOT or real.startswith(ROOT + os.sep)


def check(md):
    problems = []
    base = os.path.dirname(os.path.join(ROOT, md))
    in_code = False
    with open(os.path.join(ROOT, md), encoding='utf-8') as f:
        lines = f.read().split('\n')
    for number, line in enumerate(lines, 1):
        if FENCE.match(line):
            in_code = not in_code
        where = f'{md}:{number}'
        # A `../` anywhere but in a link target (checked below) names a path outside the repository.
        rest = INLINE.sub('', line) if not in_code else line
        if '../' in rest:
            problems.append(f'{where}: a path outside the repository: {rest.strip()[:80]}')
        if in_code:
            continue
        prose = CODE_SPAN.sub('', line)
        targets = INLINE.findall(prose)
        reference = REFERENCE.match(prose)
        if reference:
            targets.append(reference.group(1))
        for target in targets:
            if EXTERNAL.match(target):
                if target.lower().startswith('file:'):
                    problems.append(f'{where}: a file: link: {target}')
                continue
            path, _, anchor = target.partition('#')
            if path.startswith('/'):
                problems.append(f'{where}: an absolute path: {target}')
                continue
            resolved = os.path.normpath(os.path.join(base, path)) if path else os.path.join(ROOT, md)
            if not inside(resolved):
                problems.append(f'{where}: a link outside the repository: {target}')
                continue
            if not os.path.exists(resolved):
                problems.append(f'{where}: no such file: {target}')
                continue
            if anchor and resolved.endswith('.md') and os.path.isfile(resolved):
                if anchor.lower() not in anchors(resolved):
                    problems.append(f'{where}: no heading for #{anchor} in {os.path.relpath(resolved, ROOT)}')
    return problems


def main(arguments):
    files = arguments or (['README.md'] + sorted(glob.glob('docs/*.md', root_dir=ROOT))
                          + sorted(glob.glob('Sources/*/*.docc/*.md', root_dir=ROOT)))
    problems = []
    for md in files:
        if not os.path.isfile(os.path.join(ROOT, md)):
            problems.append(f'{md}: missing')
            continue
        problems += check(md)
    for problem in problems:
        print(problem)
    if problems:
        print(f'check-doc-links: {len(problems)} problem(s) in {len(files)} file(s)', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
